#!/bin/bash
# Install what the harness needs, then check that every command it, the
# tests and the programs they run call is there; quiet and quick when all
# is.  harness/deps.txt is the list (package and the commands it brings);
# t/03-deps.t fails when a script calls a command that list lacks.
#
#   deps.sh [--check]     (--check: only verify, install nothing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=$here/deps.txt

# A mirror in sync fails an index now and then: try again a little later,
# then go on with what it got (the install names what is still missing).
apt_update() {
	local try
	for try in 1 2 3; do
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && return
		[ $try = 3 ] || sleep $((try * 15))
	done
	echo "harness: apt-get update reported errors; going on with what it got" >&2
}

mapfile -t pkgs < <(awk '!/^#/ && NF { print $1 }' "$list")
if [ "${1:-}" != --check ]; then
	missing=()
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" && continue
		# A package whose listed commands are all there already
		# (another package may provide them, and conflict with it).
		cmds=$(awk -v p="$p" '!/^#/ && $1 == p { $1 = ""; print }' "$list")
		have=1
		for c in $cmds; do
			case $c in
			-) have=0 ;;
			/*) [ -e "$c" ] || have=0 ;;
			*) command -v "$c" >/dev/null 2>&1 || have=0 ;;
			esac
		done
		[ -n "$cmds" ] && [ $have = 1 ] && continue
		missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "harness: installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt_update
		# prometheus and prometheus-node-exporter are daemons that
		# Debian starts on every interface once installed; the tests
		# start their own on 127.0.0.1.  Keep the install from
		# starting any service (policy-rc.d, which invoke-rc.d and
		# deb-systemd-invoke obey) and from enabling theirs at boot.
		policy=/usr/sbin/policy-rc.d
		own_policy=0
		if [ ! -e $policy ]; then
			printf '#!/bin/sh\nexit 101\n' >$policy
			chmod 755 $policy
			own_policy=1
		fi
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
			status=$?
		[ $own_policy = 1 ] && rm -f $policy
		for p in "${missing[@]}"; do
			case $p in prometheus|prometheus-node-exporter) ;; *) continue ;; esac
			rm -f "/etc/systemd/system/multi-user.target.wants/$p.service"
		done
		[ "${status:-0}" = 0 ] || exit "$status"
	fi
fi

# Every listed command must now be on PATH (or be the named file).
bad=0
while read -r pkg cmds; do
	for c in $cmds; do
		[ "$c" = - ] && continue
		case $c in
		/*) [ -e "$c" ] && continue ;;
		*) command -v "$c" >/dev/null 2>&1 && continue ;;
		esac
		echo "harness: '$c' is missing: install the Debian package $pkg" >&2
		bad=1
	done
done < <(awk '!/^#/ && NF' "$list")
exit $bad
