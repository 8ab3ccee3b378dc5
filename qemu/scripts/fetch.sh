#!/bin/bash
# Debian's own source of the installed QEMU, through an apt configuration
# of our own: a sources list with the deb-src entry of the archive and
# suite the binary came from, and apt's lists and caches under
# build/qemu/apt.  The machine's apt sources and state are not touched.
# The unpacked tree (Debian's patches applied by dpkg-source) becomes a
# git repository tagged `base`.
. "$(dirname "$0")/common.sh"

read -r source version <<<"$(installed_source)"
apt_dir=$QDIR/apt
upstream=${version#*:}
upstream=${upstream%-*}

# The archive and suite apt installed the binary from (its policy's
# first line under the installed version), as a deb-src entry.
policy=$(apt-cache policy "$QEMU_BINARY_PACKAGE")
origin=$(echo "$policy" |
	awk '/^ \*\*\* / { found = 1; next } found && $1 ~ /^[0-9]+$/ && $2 ~ /^https?:/ { print $2, $3; exit }')
[ -n "$origin" ] || die "apt-cache policy names no archive for the installed $QEMU_BINARY_PACKAGE"
read -r uri suite_component <<<"$origin"
suite=${suite_component%%/*}
component=${suite_component#*/}
[ "$component" != "$suite_component" ] || component=main

log "fetch $source $version ($uri $suite $component, deb-src)"
rm -rf "$apt_dir" "$QSRC" "$QDIR/unpack"
mkdir -p "$apt_dir/etc/sources.list.d" "$apt_dir/etc/preferences.d" \
	"$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$QDIR/unpack"
cat >"$apt_dir/etc/sources.list" <<LIST
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite $component
LIST
apt_private=(-o Dir::Etc::SourceList="$apt_dir/etc/sources.list"
	-o Dir::Etc::SourceParts="$apt_dir/etc/sources.list.d"
	-o Dir::Etc::Preferences="$apt_dir/etc/preferences"
	-o Dir::Etc::PreferencesParts="$apt_dir/etc/preferences.d"
	-o Dir::State="$apt_dir/state"
	-o Dir::State::status="$apt_dir/state/status"
	-o Dir::Cache="$apt_dir/cache"
	-o APT::Sandbox::User=root
	-o Debug::NoLocking=1)
: >"$apt_dir/state/status"
apt-get "${apt_private[@]}" update -q >"$QDIR/apt-update.log" 2>&1 ||
	die "apt-get update of the private source list failed (see $QDIR/apt-update.log)"
(cd "$QDIR/unpack" && apt-get "${apt_private[@]}" source -q "$source=$version" \
	>"$QDIR/apt-source.log" 2>&1) ||
	die "apt-get source $source=$version failed (see $QDIR/apt-source.log)"

tree=$(find "$QDIR/unpack" -mindepth 1 -maxdepth 1 -type d -name "$source-*" | head -1)
if [ -z "$tree" ] || [ ! -f "$tree/VERSION" ]; then
	die "apt-get source unpacked no $source tree (see $QDIR/apt-source.log)"
fi
mv "$tree" "$QSRC"
ls "$QDIR/unpack" >"$QDIR/source-files"
rm -rf "$QDIR/unpack"
echo "$source $version" >"$QDIR/base"

log "import $source $version (upstream $upstream, Debian's patches applied) as git tag base"
git -C "$QSRC" init -q
# Debian's tree carries no .gitignore of its own build outputs to keep.
git -C "$QSRC" add -A -f .
git "${GIT_ID[@]}" -C "$QSRC" commit -q -m "$source $version, as dpkg-source unpacks it"
git -C "$QSRC" tag base
