# Sourced by the benchmarks: the group of issue 11 (50 skills, 3 modules,
# 10 MCP servers whose instructions import a file), built in a fresh ROOT.
#	bench_group ROOT GROUP
bench_group() {
	mkdir -p "$1/container" "$1/skills" "$1/modules" "$1/groups/$2"
	echo "# base" >"$1/container/CLAUDE.md"
	_i=0
	while [ $_i -lt 50 ]; do
		mkdir -p "$1/skills/skill$_i"
		echo "skill $_i" >"$1/skills/skill$_i/instructions.md"
		_i=$((_i + 1))
	done
	for _m in cli scheduling web; do echo "module $_m" >"$1/modules/$_m.instructions.md"; done
	_i=0
	_servers=
	while [ $_i -lt 10 ]; do
		_servers="$_servers${_servers:+, }\"srv$_i\": {\"command\": \"x\", \"instructions\": \"Server $_i: use it @./x.md.\"}"
		_i=$((_i + 1))
	done
	echo "{\"skills\": \"all\", \"mcpServers\": {$_servers}}" >"$1/groups/$2/container.json"
}
