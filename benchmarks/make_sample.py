"""Make the bundled sample benchmark (toolex/data/sample/) from StableToolBench.

    python benchmarks/make_sample.py ../shared/data/stabletoolbench toolex/data/sample

Takes the first ``--per-group`` solvable queries of each group file, in file order (so the sample
is reproducible and spans G1/G2/G3), and writes them in the original folder layout
(``test_instruction/<group>.json``, ``test_query_ids/<group>.json``) as compact JSON. Records are
copied whole (query, api_list with every field, relevant APIs): the loader reads the sample
exactly as it reads the original. Prints the sizes; the package must stay small (< 2 MB).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

NOTICE = """\
This folder is a sample of StableToolBench (THUNLP-MT/StableToolBench, solvable_queries/),
licensed under the Apache License 2.0; see https://github.com/THUNLP-MT/StableToolBench.
The queries and tool documentation come from ToolBench (Qin et al., "ToolLLM: Facilitating Large
Language Models to Master 16000+ Real-world APIs", ICLR 2024) and StableToolBench (Guo et al.,
"StableToolBench: Towards Stable Large-Scale Benchmarking on Tool Learning of Large Language
Models", 2024).

Changes: the first {per_group} solvable queries of each group file were kept, in file order, and
the JSON was re-serialised compactly; records are otherwise unchanged. Made with
benchmarks/make_sample.py.
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("dest", type=Path)
    ap.add_argument("--per-group", type=int, default=50)
    args = ap.parse_args()
    (args.dest / "test_instruction").mkdir(parents=True, exist_ok=True)
    (args.dest / "test_query_ids").mkdir(parents=True, exist_ok=True)
    total = 0
    for path in sorted((args.source / "test_instruction").glob("*.json")):
        group = path.stem
        solvable = json.loads((args.source / "test_query_ids" / path.name).read_text())
        keep = {str(k) for k in solvable}
        records = [r for r in json.loads(path.read_text()) if str(r["query_id"]) in keep]
        chosen = records[: args.per_group]
        ids = {str(r["query_id"]): solvable[str(r["query_id"])] for r in chosen}
        out = args.dest / "test_instruction" / path.name
        out.write_text(json.dumps(chosen, ensure_ascii=False, separators=(",", ":")))
        (args.dest / "test_query_ids" / path.name).write_text(json.dumps(ids))
        total += len(chosen)
        print(f"{group}: {len(chosen)} queries, {out.stat().st_size / 1024:.0f} KiB")
    (args.dest / "NOTICE").write_text(NOTICE.format(per_group=args.per_group))
    size = sum(p.stat().st_size for p in args.dest.rglob("*") if p.is_file())
    print(f"{total} queries, {size / 1024 / 1024:.2f} MiB in {args.dest}")


if __name__ == "__main__":
    main()
