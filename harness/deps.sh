#!/bin/bash
# Install what the harness needs; quiet and quick when all is there.
set -euo pipefail
pkgs=(linux-source-6.12 qemu-system-x86 busybox-static gcc make bc bison
      flex libelf-dev libssl-dev cpio perl xz-utils patch libc6-dev
      gnuplot-nox time)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "harness: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
