#!/usr/bin/env bash
# A picture of a timeline file (CUDART_RS_TIMELINE) as a trace viewer shows it, for docs/observation.md:
#   bash scripts/dev/timeline-picture.sh TRACE.json OUT.png [FROM_US TO_US]
# Opens the file in the Chrome trace viewer (catapult's trace_viewer_full.html, from the
# torch-tb-profiler wheel on PyPI, with the webcomponents.js 0.7 polyfill from npm) in headless
# Chromium (Debian's `chromium` package) and saves a screenshot (HEIGHT pixels high, 300), of
# FROM_US..TO_US microseconds of the trace when given (the events cut to that span). Downloads
# go to .cache/timeline-picture.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
(($# == 2 || $# == 4)) || header_usage
trace=$(realpath "$1") png=$(realpath -m "$2") from=${3:-} to=${4:-}
[[ -f $trace ]] || die "no $1"
command -v chromium >/dev/null || die "needs chromium (apt-get install chromium)"
c=$root/.cache/timeline-picture
mkdir -p "$c" || die "cannot make $c"
if [[ ! -f $c/trace_viewer_full.html ]]; then
    python3 -m pip download -q --no-deps -d "$c" torch-tb-profiler==0.4.3 &&
        unzip -o -q -j "$c"/torch_tb_profiler-0.4.3-*.whl torch_tb_profiler/static/trace_viewer_full.html -d "$c" ||
        die "no trace viewer (torch-tb-profiler 0.4.3 from PyPI)"
fi
if [[ ! -f $c/webcomponents.min.js ]]; then
    curl -fsSL https://registry.npmjs.org/webcomponents.js/-/webcomponents.js-0.7.24.tgz | tar xz -C "$c" package/webcomponents.min.js &&
        mv "$c/package/webcomponents.min.js" "$c/" && rmdir "$c/package" || die "no webcomponents.js 0.7.24 from npm"
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$c/trace_viewer_full.html" "$c/webcomponents.min.js" "$w/" || die "cannot copy the viewer"
python3 - "$trace" "$w/index.html" "$from" "$to" <<'PY'
import json, sys
trace, page, lo, hi = sys.argv[1:5]
events = json.load(open(trace))
if lo and hi:
    # The span asked for: what overlaps it, cut to it (the viewer shows the whole of what it
    # is given); metadata (track names) kept.
    lo, hi = float(lo), float(hi)
    kept = []
    for e in events:
        if e.get("ph") != "X":
            kept.append(e)
            continue
        s, t = e["ts"], e["ts"] + e.get("dur", 0)
        if t < lo or s > hi:
            continue
        e = dict(e, ts=max(s, lo))
        e["dur"] = min(t, hi) - e["ts"]
        kept.append(e)
    events = kept
data = json.dumps(events)
open(page, "w").write("""<!DOCTYPE html><html><head>
<script src="webcomponents.min.js"></script>
<script>window.__hideTraceViewerPolyfillWarning = true;</script>
<link rel="import" href="trace_viewer_full.html">
<style>html,body{margin:0;padding:0;width:100%%;height:100%%;overflow:hidden}</style>
</head><body><script>
const TRACE = %s;
document.addEventListener('WebComponentsReady', function () {
  const container = document.createElement('track-view-container');
  container.id = 'track_view_container';
  const viewer = document.createElement('tr-ui-timeline-view');
  viewer.track_view_container = container;
  Polymer.dom(viewer).appendChild(container);
  viewer.globalMode = true;
  Polymer.dom(document.body).appendChild(viewer);
  const model = new tr.Model();
  new tr.importer.Import(model).importTraces([TRACE]);
  viewer.model = model;
  viewer.viewTitle = %s;
});
</script></body></html>""" % (json.dumps(data), json.dumps("cudart-rs timeline: " + trace.split("/")[-1])))
PY
(($? == 0)) || die "the page was not written"
(cd "$w" && timeout 120 chromium --headless=new --no-sandbox --disable-gpu --allow-file-access-from-files \
    --virtual-time-budget=20000 --enable-logging=stderr --v=0 --window-size=1600,${HEIGHT:-300} --screenshot="$png" "file://$w/index.html" 2>&1 | grep CONSOLE | grep -i 'uncaught' | cut -c1-250 >&2 || true)
[[ -s $png ]] && echo "timeline-picture: $png"
