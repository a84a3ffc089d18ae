#!/usr/bin/env bash
# Two builds of Sluice and the bare forwarder measured at the same moment: all three (and the
# mock behind them) on core 0, each loaded by its own wrk on core 1 for the same seconds, so
# the machine's drift hits them alike. Prints CPU per request of each, per turn.
#
# Usage: bench/side-by-side.sh <dist A> <dist B> [stream 0|1] [seconds per turn] [turns]
#   a dist is a compiled tree (npm run build; for an older commit: git worktree add + build).
#   CONFIG_A / CONFIG_B: a GATEWAY_CONFIG for either (e.g. one build twice, plugin lists apart).
#   FLAGS_A / FLAGS_B: node options for either (e.g. one build twice, FLAGS_B=--max-semi-space-size=2).
set -euo pipefail
cd "$(dirname "$0")/.."
A=$(realpath "$1"); B=$(realpath "$2"); STREAM=${3:-1}; SECS=${4:-8}; TURNS=${5:-4}
D=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; rm -rf "$D"' EXIT
port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
M=$(port); PB=$(port); PA=$(port); PN=$(port)
taskset -c 0 node --import tsx bench/mock-provider.ts --port "$M" >"$D/mock.log" 2>&1 </dev/null & PIDS+=($!)
sleep 1.5
taskset -c 0 node --import tsx bench/bare-forwarder.ts --port "$PB" --upstream "http://127.0.0.1:$M" >"$D/bare.log" 2>&1 </dev/null & BP=$!; PIDS+=($BP)
# $4: node options, split on spaces.
sluice() { PORT=$1 HOST=127.0.0.1 GATEWAY_DATA_DIR="$D/data$1" GATEWAY_MASTER_KEY=sk-bench-master OPENAI_API_KEY=sk-bench-upstream \
  OPENAI_BASE_URL="http://127.0.0.1:$M/v1" exec env ${3:+"GATEWAY_CONFIG=$3"} taskset -c 0 node $4 --import tsx "$2/core/main.js" >"$D/sluice$1.log" 2>&1 </dev/null; }
sluice "$PA" "$A" "${CONFIG_A:-}" "${FLAGS_A:-}" & AP=$!; PIDS+=($AP)
sluice "$PN" "$B" "${CONFIG_B:-}" "${FLAGS_B:-}" & NP=$!; PIDS+=($NP)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PA/healthz" >/dev/null && curl -sf "http://127.0.0.1:$PN/healthz" >/dev/null && break; sleep 0.2; done
script() {
  local extra=''; [ "$STREAM" = 1 ] && extra=',"stream":true,"stream_options":{"include_usage":true}'
  printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["authorization"] = "Bearer %s"\nwrk.headers["content-type"] = "application/json"\n' \
    "'{\"model\":\"$1\",\"messages\":[{\"role\":\"system\",\"content\":\"You are a concise assistant. Answer in one short paragraph.\"},{\"role\":\"user\",\"content\":\"Explain in two sentences what an AI gateway does and why teams put one in front of model providers.\"}],\"temperature\":0.2,\"max_tokens\":256$extra}'" "$2" >"$3"
}
script gpt-4o-mini sk-bench-upstream "$D/bare.lua"; script openai/gpt-4o-mini sk-bench-master "$D/sluice.lua"
load() {
  taskset -c 1 wrk -t1 -c16 -d"$1"s -s "$D/bare.lua" "http://127.0.0.1:$PB/v1/chat/completions" >"$D/wb" & local w1=$!
  taskset -c 1 wrk -t1 -c16 -d"$1"s -s "$D/sluice.lua" "http://127.0.0.1:$PA/v1/chat/completions" >"$D/wa" & local w2=$!
  taskset -c 1 wrk -t1 -c16 -d"$1"s -s "$D/sluice.lua" "http://127.0.0.1:$PN/v1/chat/completions" >"$D/wn" & local w3=$!
  wait "$w1" "$w2" "$w3"
}
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
requests() { grep -Eo '[0-9]+ requests' "$1" | grep -Eo '[0-9]+'; }
load 3
for turn in $(seq 1 "$TURNS"); do
  b0=$(ticks $BP); a0=$(ticks $AP); n0=$(ticks $NP)
  load "$SECS"
  b1=$(ticks $BP); a1=$(ticks $AP); n1=$(ticks $NP)
  node -e "const [b,a,n,rb,ra,rn]=process.argv.slice(1).map(Number); const us=(t,r)=>t*1e4/r;
    console.log('turn $turn: bare '+us(b,rb).toFixed(0)+' us/req, A '+us(a,ra).toFixed(0)+' ('+(us(a,ra)/us(b,rb)).toFixed(2)+'x), B '+us(n,rn).toFixed(0)+' ('+(us(n,rn)/us(b,rb)).toFixed(2)+'x)')" \
    $((b1-b0)) $((a1-a0)) $((n1-n0)) "$(requests "$D/wb")" "$(requests "$D/wa")" "$(requests "$D/wn")"
done
if grep -qE 'Non-2xx|Socket errors' "$D/wb" "$D/wa" "$D/wn"; then echo "warning: wrk saw errors:"; grep -E 'Non-2xx|Socket errors' "$D"/w?; fi
