#!/usr/bin/env bash
# The checks that need a GPU, as one call on a lent CUDA machine (run from the repository root there):
#   1. the CUDA tests (pytest -m cuda: the oracle's device=cuda paths);
#   2. the corpus against torch.compile on CUDA (--ngb-corpus; an open entry recorded on the CPU xfails there
#      while its bug shows with its signature and reads XPASS where it does not; a FIXED entry fails on a torch
#      that still has its bug, another signature fails);
#   3. a short campaign against inductor on CUDA, its directory packed as $OUT/campaign.tgz.
# That machine's python3 holds a CUDA torch and reaches no registry: the wheels it lacks (libcst, hypothesmith,
# lark) travel in an ignored .whl/ folder (README: "On a machine with CUDA"). The project itself is installed there
# from the working tree (no build isolation, nothing fetched) so that pytest finds its plugin by the entry point,
# as on any install; the working tree comes first on the path, so its code is what runs.
#     bash benchmarks/device_check.sh [CAMPAIGN_BUDGET (default 2m)] [WORKERS (default 12)]
# (CORPUS_S: seconds for step 2, default 240; run it under a 600 s limit)
set -uo pipefail
OUT=${OUT:-/tmp/ngb-device-check}
BUDGET=${1:-2m}
WORKERS=${2:-12}
CORPUS_S=${CORPUS_S:-240}  # a lent machine has 15 minutes in all: the three steps fit in about 9
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD"
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
        || { echo "installing .whl/ failed"; exit 1; }
fi
python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --no-cache-dir --target /tmp/site . \
    || { echo "installing the project failed"; exit 1; }
export PYTHONPATH="$PWD:/tmp/site"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 -c "import sys, torch; print('python', sys.version.split()[0], 'torch', torch.__version__, torch.cuda.get_device_name(0))" \
    || exit 1
start=$SECONDS

echo "== 1. CUDA tests"
timeout 120 python3 -m pytest -q -n 4 -m cuda -rs -p no:cacheprovider tests 2>&1 | tee "$OUT/cuda-tests.log" | tail -15
echo "   ($((SECONDS - start)) s)"

echo "== 2. corpus on CUDA (torch.compile, backend=eager), at most ${CORPUS_S}s"
# -v: each entry's outcome is written as it ends, so a run cut off by its time limit still says which failed
timeout "$CORPUS_S" python3 -m pytest -v -n 14 -p no:cacheprovider --ngb-corpus corpus --ngb-target torch:device=cuda \
    -rfxX corpus > "$OUT/corpus-cuda.log" 2>&1
echo "   exit $? ($((SECONDS - start)) s); outcomes:" \
    "$(grep -oE "\] (PASSED|FAILED|XFAIL|XPASS|SKIPPED|ERROR) " "$OUT/corpus-cuda.log" | awk '{print $2}' | sort | uniq -c \
       | awk '{printf "%s %s  ", $2, $1}')"
grep -E "\] (FAILED|XPASS|ERROR) " "$OUT/corpus-cuda.log" | sed -E 's/^\[gw[0-9]+\] \[ *[0-9]+%\] //' | cut -c1-200
echo "   ($((SECONDS - start)) s)"

echo "== 3. campaign: inductor on CUDA, $BUDGET, $WORKERS workers"
timeout 300 python3 -m fuzz.cli run --target torch:device=cuda,backend=inductor --budget "$BUDGET" \
    --workers "$WORKERS" --out "$OUT/campaign" --corpus corpus 2>&1 | tee "$OUT/campaign.log" | tail -25
tar czf "$OUT/campaign.tgz" -C "$OUT" campaign && rm -rf "$OUT/campaign"
echo "   ($((SECONDS - start)) s)"
