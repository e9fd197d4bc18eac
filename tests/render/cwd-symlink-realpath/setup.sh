set -e
mkdir q
ln -s ../p q/lp
