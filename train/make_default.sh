#!/usr/bin/env bash
# train/make_default.sh [BUILD] [WORK] — remakes the shipped default model,
# models/hyeongse-default.hsn, from ../shared/data in one command: the
# patent's labels (`hyeongse label`, yose by the search over KataGo's b6c96
# net at 4 visits a move, dead stones by the net judge) of the first 3,000
# games of the pro archive, then the trainer (train/configs/default.json,
# seed 1) and the export. models/README.md (the model's card) gives the
# figures this produced. The validation games (split by game id) are never
# trained on.
# BUILD: the CMake build folder (default build-release); WORK: where the
# labels and the checkpoint go (default /tmp/hs-default-model).
# For a quick trial of the pipeline (not the shipped model): HS_LABEL_GAMES=N
# labels fewer games, HS_TRAIN_STEPS=N trains fewer steps, HS_MODEL_OUT=FILE
# writes the model elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
work=${2:-/tmp/hs-default-model}
data=${HS_DATA_DIR:-$root/../shared/data}
net=$data/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz
py=${HS_TRAIN_PYTHON:-/usr/bin/python3}
games=${HS_LABEL_GAMES:-3000}
for f in "$build/cli/hyeongse" "$data/pro19/pro19-archive.tar.gz" "$net"; do
    [ -e "$f" ] || { echo "make_default: $f is missing" >&2; exit 1; }
done
"$py" -c 'import torch, numpy' || { echo "make_default: $py needs torch and numpy" >&2; exit 1; }
mkdir -p "$work"
if [ ! -f "$work/labels/index.json" ]; then
    "$build/cli/hyeongse" label "$data/pro19/pro19-archive.tar.gz" --out "$work/labels" \
        --net "$net" --backend cpu --visits 4 --max-games "$games" --size 19 --seed 1
fi
"$py" "$root/train/train.py" --data "$work/labels" --config "$root/train/configs/default.json" \
    --out "$work/train" --seed 1 $([ -f "$work/train/checkpoint.pt" ] && echo --resume) \
    ${HS_TRAIN_STEPS:+--steps "$HS_TRAIN_STEPS"}
out=${HS_MODEL_OUT:-$root/models/hyeongse-default.hsn}
"$py" "$root/train/export.py" "$work/train/checkpoint.pt" "$out" \
    --name hyeongse-default-6x48
echo "make_default: $out written (labels and checkpoint in $work)"
