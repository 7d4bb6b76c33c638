"""Build the English word list the extractor uses to tell a product typed in lower case from an
ordinary word (app/text/english_words.txt.gz).

    apt-get install -y wbritish-large wamerican
    python ops/models/build_words.py

Why: chat types products in lower case ("invoices go through quickbooks", "we use genesys",
"kotlin + jetpack compose"), and the name reader takes a name by its capital letter. A word no
dictionary holds is a candidate: a product, a typo or chat's shorthand, which the reader scores
by the words around it and its own meaning. The dictionary must hold the inflected forms
people type ("invoices", "audiobooks", "antidepressants") and everyday words a model's
vocabulary lacks ("kettlebell" aside, "hoodie", "forklift", "narrowboat" are in it), so it is
SCOWL's large British list and its American one (Debian's wbritish-large and wamerican, SCOWL
copyright Kevin Atkinson and others, permissive licence: app/text/english_words.NOTICE),
lower-case entries of letters only (a capitalised entry is a proper name: "Linux", "Excel").
The packages are needed only here: the list is a gzipped text file in the package.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "app/text/english_words.txt.gz"
SOURCES = (
    Path("/usr/share/dict/british-english-large"),
    Path("/usr/share/dict/american-english"),
)
WORD = re.compile(r"[a-z]+")


def main() -> None:
    words = sorted(
        {
            line.strip()
            for source in SOURCES
            for line in source.read_text(encoding="utf-8").splitlines()
            if WORD.fullmatch(line.strip())
        }
    )
    # mtime=0: the same lists give the same bytes
    OUT.write_bytes(gzip.compress(("\n".join(words) + "\n").encode(), compresslevel=9, mtime=0))
    print(f"{OUT.relative_to(ROOT)}: {len(words):,} words, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
