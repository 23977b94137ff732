"""The book and the README against the tree they describe.

- The layout block (one line per folder of src, crates, python and docs) is the
  same in README.md and docs/development/layout.md, and lists exactly the
  folders git tracks there.
- Every spec the code cites (`metrics.md §2`, `analysis.md` §3, …) is a file in
  docs/spec/, and every cited section is a heading of it.
"""

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("src", "crates", "python", "docs")
BLOCK = re.compile(r"<!-- layout:begin -->\n```text\n(.*?)```\n<!-- layout:end -->", re.S)


def layout_block(path):
    found = BLOCK.findall((REPO / path).read_text())
    assert len(found) == 1, f"{path}: expected one <!-- layout:begin/end --> block"
    return found[0]


def tracked_folders():
    try:
        out = subprocess.run(
            ["git", "ls-files", "--", *ROOTS], cwd=REPO, check=True, capture_output=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("SKIPPED: not a git checkout")
    folders = set()
    for f in out.splitlines():
        parent = Path(f).parent
        while str(parent) != ".":
            folders.add(f"{parent}/")
            parent = parent.parent
    return folders


def test_readme_and_book_layout_match_the_tree():
    readme, book = layout_block("README.md"), layout_block("docs/development/layout.md")
    assert readme == book, "README.md and docs/development/layout.md: the layout blocks differ"
    listed = [line.split()[0] for line in readme.splitlines() if line.strip()]
    assert len(listed) == len(set(listed)), "a folder is listed twice"
    tree = tracked_folders()
    missing, extra = sorted(tree - set(listed)), sorted(set(listed) - tree)
    assert not missing and not extra, (
        f"the layout blocks of README.md and docs/development/layout.md do not match the tree: "
        f"add {missing}, remove {extra} (one line per folder, in both)"
    )


# A name.md with an optional path before it and an optional `§ N` after it.
CITED = re.compile(r"(\]\(|[\w./-]*/)?\b([a-z][a-z0-9_-]*\.md)\b`?\s*(?:§\s*(\d+(?:\.\d+)?))?")
NOT_SPECS = {"readings.md", "README.md", "NOTICE.md"}


def citations():
    """(file, spec, section or None) of every spec citation in the code."""
    for root in ("src", "crates", "tests", "scripts", "benches"):
        for path in sorted((REPO / root).rglob("*")):
            if path.suffix not in (".rs", ".py", ".sh") or path == Path(__file__).resolve():
                continue
            for before, name, section in CITED.findall(path.read_text(errors="replace")):
                # A path elsewhere (docs/reference/tables.md) or a markdown link is not a citation.
                if name in NOT_SPECS or (before and not before.endswith("spec/")):
                    continue
                yield path.relative_to(REPO), name, section or None


def test_every_cited_spec_and_section_is_in_docs_spec():
    seen = list(citations())
    assert any(name == "metrics.md" and section for _, name, section in seen)
    bad = []
    for where, name, section in seen:
        spec = REPO / "docs" / "spec" / name
        if not spec.is_file():
            bad.append(f"{where}: {name} is not in docs/spec/")
        elif section and not re.search(rf"^#+ {re.escape(section)}[. ]", spec.read_text(), re.M):
            bad.append(f"{where}: {name} has no section {section}")
    assert not bad, "\n".join(bad)
