"""The report as one self-contained HTML file: the same blocks as report.md, every plot inline as
a base64 PNG data URI, styles inline, no script, no remote font or stylesheet: it opens offline.
"""

from __future__ import annotations

import base64
import html
import os

_STYLE = ("body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
          "max-width:75em;margin:1em auto;padding:0 1em;color:#222}"
          "table{border-collapse:collapse;margin:.5em 0 1.5em}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:.9em;text-align:left}"
          "th{background:#f3f3f3}figure{margin:1em 0 2em}img{max-width:100%}"
          "figcaption{font-size:.9em;color:#444;max-width:60em}")


def _inline(text: str) -> str:
    """Escapes text; a whole-cell **bold** (the markdown tables' mark) becomes <b>."""
    if len(text) > 4 and text.startswith("**") and text.endswith("**"):
        return f"<b>{html.escape(text[2:-2])}</b>"
    return html.escape(text)


def _table(rows) -> str:
    head, *body = rows
    out = ["<table>", "<tr>" + "".join(f"<th>{_inline(h)}</th>" for h in head) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body]
    return "\n".join(out + ["</table>"])


def data_uri(path: str) -> str:
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def render(blocks, workdir: str) -> str:
    """HTML of the report's blocks: ("h1"|"h2"|"p", text), ("table", rows) and
    ("figure", path relative to workdir, caption)."""
    title = next((b[1] for b in blocks if b[0] == "h1"), "Benchmark report")
    parts = ["<!doctype html>", "<html lang='en'>", "<head>", "<meta charset='utf-8'>",
             f"<title>{html.escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>",
             "<body>"]
    for kind, *rest in blocks:
        if kind in ("h1", "h2", "p"):
            parts.append(f"<{kind}>{html.escape(rest[0])}</{kind}>")
        elif kind == "table":
            parts.append(_table(rest[0]))
        elif kind == "figure":
            path, caption = rest
            parts.append(f"<figure><img src='{data_uri(os.path.join(workdir, path))}' "
                         f"alt='{html.escape(os.path.basename(path), quote=True)}'>"
                         f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        else:
            raise ValueError(f"unknown report block {kind!r}")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
