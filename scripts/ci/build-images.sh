#!/usr/bin/env bash
# Builds the two local images the Testcontainers ITs need, from Debian packages already on this machine,
# without pulling anything from an image registry:
#   alpine:3.17        busybox in a root filesystem: Testcontainers runs "sh" in it when it finds /.dockerenv
#   triage-nginx:local Debian's nginx binary, the libraries ldd lists for it, and busybox
# Usage: build-images.sh   (needs a running Docker engine, nginx and busybox-static installed)
set -euo pipefail

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A root filesystem with busybox and its applets (sh, cat, ls ...), plus minimal users and groups.
make_busybox_root() {
  local root=$1
  mkdir -p "$root"/{bin,sbin,etc,tmp,proc,sys,dev,var/log,var/run,usr/bin,usr/sbin}
  chmod 1777 "$root/tmp"
  cp "$(command -v busybox)" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
  printf 'hosts: files\n' > "$root/etc/nsswitch.conf"
  printf '127.0.0.1 localhost\n' > "$root/etc/hosts"
}

# alpine:3.17 stand-in
make_busybox_root "$work/alpine"
tar -C "$work/alpine" -c . | docker import -c 'CMD ["/bin/sh"]' - alpine:3.17 >/dev/null
echo "built alpine:3.17 (busybox)"

# nginx: the binary plus every shared library it links, at the same paths
make_busybox_root "$work/nginx"
nginx_bin=$(command -v nginx)
mkdir -p "$work/nginx$(dirname "$nginx_bin")" "$work/nginx/etc/nginx" "$work/nginx/var/lib/nginx" "$work/nginx/var/log/nginx"
cp "$nginx_bin" "$work/nginx$nginx_bin"
for lib in $(ldd "$nginx_bin" | grep -o '/[^ ]*' | sort -u); do
  mkdir -p "$work/nginx$(dirname "$lib")"
  cp -L "$lib" "$work/nginx$lib"
done
# glibc resolves users through NSS modules loaded at run time, which ldd does not list
for lib in /lib/x86_64-linux-gnu/libnss_files.so.2 /lib/x86_64-linux-gnu/libnss_compat.so.2; do
  [ -e "$lib" ] && cp -L "$lib" "$work/nginx$lib"
done
cp /etc/nginx/mime.types "$work/nginx/etc/nginx/mime.types"
tar -C "$work/nginx" -c . | docker import -c 'CMD ["nginx", "-g", "daemon off;"]' - triage-nginx:local >/dev/null
echo "built triage-nginx:local ($("$nginx_bin" -v 2>&1))"
