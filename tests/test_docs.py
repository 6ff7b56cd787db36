"""The documentation stands alone: no reference to files outside the repository, README links
to docs/ that resolve, and docs/methods.md covering every registered method and its settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = "shared/"
# A markdown link target or a bare mention of a docs page, e.g. [x](docs/metrics.md#dp).
DOCS_REF = re.compile(r"(?<![\w/.-])(docs/[\w.-]+\.md)")
SECTION = re.compile(r"^### `([\w-]+)`", re.M)


def documented_files(root: Path) -> list[Path]:
    """README.md, docs/*.md and every source file of the package under `root`."""
    files = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    files += sorted(p for p in (root / "nhfair_jax").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    return [p for p in files if p.exists()]


def outside_mentions(files) -> list[str]:
    """'path:line: text' for every line that mentions a path outside the repository."""
    hits = []
    for path in files:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE in line:
                hits.append(f"{path}:{number}: {line.strip()}")
    return hits


def docs_references(text: str) -> set[str]:
    return set(DOCS_REF.findall(text))


def method_sections(text: str) -> dict[str, str]:
    """{method name: text of its '### `name`' section} of docs/methods.md."""
    heads = list(SECTION.finditer(text))
    out = {}
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out[head.group(1)] = text[head.end():end]
    return out


def test_no_file_mentions_paths_outside_the_repository():
    files = documented_files(ROOT)
    assert len(files) > 50, "the package's files were not found"
    hits = outside_mentions(files)
    assert not hits, ("the product must stand alone; point to docs/ or README.md instead:\n"
                      + "\n".join(hits))


def test_outside_mentions_catches_a_bad_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "nhfair_jax" / "sub").mkdir(parents=True)
    (tmp_path / "README.md").write_text("fine\n")
    (tmp_path / "docs" / "a.md").write_text("ok\nsee shared/spec/x.md\n")
    (tmp_path / "nhfair_jax" / "sub" / "m.py").write_text('"""(shared/DESIGN.md)."""\n')
    hits = outside_mentions(documented_files(tmp_path))
    assert [h.split(": ", 1)[0] for h in hits] == [f"{tmp_path}/docs/a.md:2",
                                                   f"{tmp_path}/nhfair_jax/sub/m.py:1"]


def test_docs_references_finds_links_and_bare_mentions():
    text = ("[m](docs/metrics.md), [s](docs/selection.md#zones), `docs/methods.md`, "
            "data/docs/x.md is not one, ../docs/y.md neither")
    assert docs_references(text) == {"docs/metrics.md", "docs/selection.md", "docs/methods.md"}


def test_readme_links_to_docs_resolve():
    refs = docs_references((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"docs/metrics.md", "docs/selection.md", "docs/methods.md"} <= refs
    missing = sorted(r for r in refs if not (ROOT / r).is_file())
    assert not missing, f"README.md links to missing pages: {missing}"


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_links_between_docs_pages_resolve(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text)
    missing = [t for t in targets if not (ROOT / "docs" / t).resolve().is_file()]
    assert not missing, f"docs/{page} links to missing pages: {missing}"


def test_methods_page_documents_every_registered_method_and_its_settings():
    from nhfair_jax.methods import method_class, registered

    sections = method_sections((ROOT / "docs" / "methods.md").read_text(encoding="utf-8"))
    names = registered()
    assert len(names) >= 14
    missing = [n for n in names if n not in sections]
    assert not missing, f"docs/methods.md has no '### `name`' section for {missing}"
    undocumented = {n: [k for k in method_class(n).defaults if f"`{k}`" not in sections[n]]
                    for n in names}
    undocumented = {n: keys for n, keys in undocumented.items() if keys}
    assert not undocumented, ("docs/methods.md does not describe these hyperparameters in the "
                              f"method's section: {undocumented}")


def test_method_sections_splits_on_method_headings():
    text = "# Methods\n### `erm`\nplain `lr`\n## Group\n### `mixup`\n`coef` and `alpha`\n"
    sections = method_sections(text)
    assert sorted(sections) == ["erm", "mixup"]
    assert "`coef`" in sections["mixup"] and "`coef`" not in sections["erm"]


def test_the_readme_is_a_users_page_whose_install_brings_no_torch():
    """A user's README (at most 250 lines) whose first install line is `pip install -e
    ".[test]"`, and neither the package's dependencies nor its test extra bring PyTorch or
    transformers (the tests of the bridges skip without them)."""
    import tomllib

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    first = next(line for line in readme.splitlines() if line.startswith("pip install"))
    assert first == 'pip install -e ".[test]"', first
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    light = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    heavy = [d for d in light if re.match(r"(torch|transformers|diffusers|accelerate)\b", d)]
    assert not heavy, heavy
