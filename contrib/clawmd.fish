# fish completion for clawmd.  Installed as share/fish/vendor_completions.d/clawmd.fish.
#
# Commands, options and groups come from clawmd itself (its --help and the
# hidden `clawmd __complete`), so they follow the option tables and the
# layout (ROOT, clawmd.json's "groups") exactly as the commands see them.

function __clawmd_command
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case -C --root --preset --base --skills --groups --modules --state --mode --lock-timeout --color
                set skip 1
            case '-*'
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

function __clawmd_layout_args
    set -l words (commandline -opc)
    set -l n (count $words)
    for i in (seq 2 $n)
        switch $words[$i]
            case -C --root --groups --preset
                if test $i -lt $n
                    echo $words[$i]
                    echo $words[(math $i + 1)]
                end
            case '--root=*' '--groups=*' '--preset=*'
                echo $words[$i]
        end
    end
end

function __clawmd_groups
    clawmd (__clawmd_layout_args) __complete groups 2>/dev/null
end

function __clawmd_options
    set -l cmd (__clawmd_command)
    or return
    # the command's own options; the layout options from 'clawmd --help'
    clawmd $cmd --help 2>/dev/null | sed -n '/^Layout options/q; s/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'
    test $cmd = init
    or clawmd --help 2>/dev/null | sed -n '/^Layout options/,$ s/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'
end

function __clawmd_no_command
    not __clawmd_command >/dev/null
end

function __clawmd_using
    set -l cmd (__clawmd_command)
    and contains -- $cmd $argv
end

complete -c clawmd -f
complete -c clawmd -n __clawmd_no_command -a '(clawmd __complete commands 2>/dev/null)'
complete -c clawmd -n __clawmd_no_command -a help -d 'describe a command'
complete -c clawmd -n '__clawmd_using help' -a '(clawmd __complete commands 2>/dev/null | cut -f1)'
complete -c clawmd -s C -l root -r -F -d 'the host root'
complete -c clawmd -s V -l version -n __clawmd_no_command -d 'print the version'
complete -c clawmd -l preset -x -a 'default nanoclaw'
complete -c clawmd -l mode -x -a 'copy symlink'
complete -c clawmd -l color -x -a 'auto always never'
complete -c clawmd -n '__clawmd_using check' -l format -x -a 'text json sarif'
complete -c clawmd -n '__clawmd_using render' -l format -x -a 'text files json'
complete -c clawmd -n '__clawmd_using status' -l format -x -a 'table json'
complete -c clawmd -n '__clawmd_using mounts' -l format -x -a 'docker json kubernetes'
complete -c clawmd -n '__clawmd_using render' -s g -l group -x -a '(__clawmd_groups)'
complete -c clawmd -n 'not __clawmd_no_command; and string match -q -- "-*" (commandline -ct)' -a '(__clawmd_options)'
complete -c clawmd -n '__clawmd_using compose check status mounts report' -a '(__clawmd_groups)'
complete -c clawmd -n '__clawmd_using init' -a '(__fish_complete_directories)'
