"""sheetgen's benchmarks (not part of the test run; run from a clone, `python -m bench.NAME`).

- `bench.scan`: how well `sheetgen scan` reads the generated photos of `bench.photos` (one
  runner for every generator of its registry);
- `bench.scan_decide`, `bench.scan_boxes`: what the reader's last steps were given, kept, so
  that a change to them is measured offline on exactly the same boxes or pages;
- `bench.end_to_end`: played games photographed, scanned and scored through the CLI;
- `bench.speed`: how fast and how small, against naive baselines;
- `bench.report`: bench/RESULTS.md and docs/scan-accuracy.md, made from bench/results.jsonl,
  the one file every bench appends its results to (`bench.results`).
"""
