#!/bin/sh
# Add GPU Scaling Advisor to the desktop's application menu, for this user only: the menu entry
# (pointing at this unpacked folder) and the icon in every size. Run it from the unpacked folder;
# run it again after moving the folder. `--remove` takes the entry and the icons away again.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
entry="$data/applications/gpu-scaling-advisor.desktop"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$entry"
    for png in "$here"/icons/gpu-advisor-*.png; do
        size=$(basename "$png" .png | sed 's/gpu-advisor-//')
        rm -f "$data/icons/hicolor/${size}x${size}/apps/gpu-scaling-advisor.png"
    done
    echo "removed $entry"
    exit 0
fi
mkdir -p "$data/applications"
for png in "$here"/icons/gpu-advisor-*.png; do
    size=$(basename "$png" .png | sed 's/gpu-advisor-//')
    mkdir -p "$data/icons/hicolor/${size}x${size}/apps"
    cp "$png" "$data/icons/hicolor/${size}x${size}/apps/gpu-scaling-advisor.png"
done
# Exec with the absolute path of this folder (quoted: it may hold spaces).
sed "s|^Exec=gpu-advisor-gui|Exec=\"$here/gpu-advisor-gui\"|" \
    "$here/gpu-scaling-advisor.desktop" > "$entry"
chmod 644 "$entry"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$data/applications" || true
echo "added $entry"
