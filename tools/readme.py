"""The README's course table says each notebook's verdicts as the ledger does (helpers.course.ledger):
its third column is rendered from `ledger.readme_verdicts()`, never written by hand.

    python tools/readme.py          # write the column into README.md (make notebooks runs it)
    python tools/readme.py --check  # change nothing; exit 1 if README.md's column is out of date
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from helpers.course.ledger import NOTEBOOKS, readme_verdicts  # noqa: E402

README = ROOT / "README.md"
ROW = re.compile(
    r"^(\| \[(\d\d) [^|]*\|[^|]*\|)[^|]*(\|[^|]*\|)$", re.M
)  # notebook | question | verdict | time


def with_verdicts(text: str) -> str:
    """`text` (the README) with each course-table row's verdict column from the ledger."""
    column = {stem[:2]: verdict for stem, verdict in readme_verdicts().items()}
    rows = {m.group(2) for m in ROW.finditer(text)}
    if rows != {stem[:2] for stem, _, _ in NOTEBOOKS}:
        raise SystemExit(f"README.md's course table has rows {sorted(rows)}, the ledger {sorted(column)}")
    return ROW.sub(lambda m: f"{m.group(1)} {column[m.group(2)]} {m.group(3)}", text)


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    new = with_verdicts(text)
    if "--check" in argv:
        if new != text:
            print("README.md's verdict column differs from the ledger: run python tools/readme.py")
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
