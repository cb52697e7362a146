#!/usr/bin/env python3
"""Which public functions of the engine (src/sim) have an example in their doc comment.

Lists every `pub fn` in src/sim/** that a user of the crate can reach (a free function in a public
module or re-exported by `pub use`, or a method in an inherent `impl` of a public type; not
`pub(crate)`, not inside `#[cfg(test)]` modules or function bodies), says whether its doc comment
holds a ``` code block (a doctest), and whether a caller uses it: its name appears in src/ui,
src/cli, src/course, src/main.rs, tests/ or benches/ (a grep, so a common method name such as
`len` may count as used when only another type's `len` is).

    python3 scripts/doc_examples.py              # summary + the functions lacking an example
    python3 scripts/doc_examples.py --all        # every function, one a line
    python3 scripts/doc_examples.py --check      # exit 1 if a function a caller uses lacks one

No dependency beyond Python 3.8's standard library; run from anywhere.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "src" / "sim"
CALLERS = ["src/ui", "src/cli", "src/course", "src/main.rs", "tests", "benches"]


def blank_comments_and_strings(src: str) -> str:
    """The source with comments and the contents of string and char literals replaced by spaces
    (newlines kept), so that braces and semicolons in the result are code."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(src, i)) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + m.group(1)
            j = src.find(end, m.end())
            j = n if j < 0 else j + len(end)
            blank(m.end(), j - len(end))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{..}') or a lifetime ('a): only the former is blanked.
            m = re.compile(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'").match(src, i)
            if m:
                blank(i + 1, m.end() - 1)
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


@dataclass
class Fn:
    file: Path
    line: int
    module: str  # e.g. sim::units
    owner: str | None  # the impl's type, None for a free function
    name: str
    takes_self: bool
    has_example: bool
    used: bool = False

    @property
    def path(self) -> str:
        return f"{self.module}::{self.owner + '::' if self.owner else ''}{self.name}"


FN_RE = re.compile(
    r"^\s*(?:#\[[^\]]*\]\s*)*(pub(?:\s*\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+|extern\s+\S+\s+)*fn\s+(\w+)"
)
MOD_RE = re.compile(r"^\s*((?:#\[[^\]]*\]\s*)*)(pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*$")
IMPL_RE = re.compile(r"^\s*(?:#\[[^\]]*\]\s*)*(?:unsafe\s+)?impl\b")
TYPE_RE = re.compile(r"\bpub\s+(?:struct|enum|type|union)\s+(\w+)")
PUB_USE_RE = re.compile(r"\bpub\s+use\s+([^;]+);")


def impl_type(header: str) -> tuple[str | None, bool]:
    """(the implemented type's name, is a trait impl) for an `impl ...` header."""
    h = re.sub(r"\bwhere\b.*", "", header, flags=re.S)
    h = re.sub(r"^\s*(?:#\[[^\]]*\]\s*)*(?:unsafe\s+)?impl\s*", "", h)
    # Drop the impl's own generic parameters.
    if h.startswith("<"):
        depth = 0
        for k, ch in enumerate(h):
            depth += ch == "<"
            depth -= ch == ">"
            if depth == 0:
                h = h[k + 1 :]
                break
    trait = re.search(r"\bfor\b", h) is not None
    if trait:
        h = h.split(" for ", 1)[-1] if " for " in h else re.split(r"\bfor\b", h, 1)[1]
    h = re.sub(r"<.*", "", h, flags=re.S).strip()
    name = h.split("::")[-1].strip().lstrip("&").strip()
    return (name or None), trait


def module_of(path: Path) -> str:
    rel = path.relative_to(ROOT / "src").with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts.pop()
    return "::".join(parts)


def scan_file(path: Path):
    """Yields ('fn', Fn-without-reachability-info, context) and ('type', name, is_public_at_top)."""
    src = path.read_text()
    code = blank_comments_and_strings(src)
    lines = src.split("\n")
    # A stack of block kinds: 'mod', 'testmod', 'impl:<Type>', 'traitimpl', 'fn', 'other'.
    stack: list[str] = []
    header_start = 0
    fns, pub_types, pub_uses = [], [], []
    for i, ch in enumerate(code):
        if ch not in "{};":
            continue
        header = code[header_start:i]
        hs = header.strip()
        in_code = any(k in ("fn", "other", "traitimpl", "trait", "testmod") for k in stack)
        if ch == ";" and not stack:
            for m in PUB_USE_RE.finditer(header + ";"):
                pub_uses.append(m.group(1))
        if ch in "{;" and not in_code:
            if (m := TYPE_RE.search(hs)) and re.match(r"^\s*(?:#\[[^\]]*\]\s*)*pub\s+(struct|enum|type|union)", hs):
                if all(k.startswith("mod") for k in stack):
                    pub_types.append(m.group(1))
            fm = FN_RE.match(hs) if ch == "{" else None
            if fm and fm.group(1) and fm.group(1).strip() == "pub":
                parent = stack[-1] if stack else "mod"
                if parent == "mod" or parent.startswith("impl:"):
                    start = header_start + (len(header) - len(header.lstrip()))
                    fn_off = start + hs.find("fn " + fm.group(2))
                    line = code.count("\n", 0, fn_off)  # 0-based
                    # Its doc comment: the /// lines just above, across attribute lines.
                    doc, k = [], line - 1
                    while k >= 0:
                        s = lines[k].strip()
                        if s.startswith("///"):
                            doc.append(s)
                        elif s.startswith("#[") or s.startswith("#!") or (s and not s.startswith("//") and doc == [] and False):
                            pass
                        elif s.endswith(")]") or s.endswith("]"):  # a multi-line attribute's tail
                            pass
                        else:
                            break
                        k -= 1
                    after_name = hs[hs.find("fn " + fm.group(2)) :]
                    params = after_name[after_name.find("(") :]
                    takes_self = re.match(r"\(\s*(?:&\s*(?:'\w+\s+)?)?(?:mut\s+)?self\b", params) is not None
                    owner = parent[5:] if parent.startswith("impl:") else None
                    fns.append(
                        Fn(path, line + 1, module_of(path), owner, fm.group(2), takes_self, any("```" in d for d in doc))
                    )
        if ch == "{":
            if in_code:
                kind = "other"
            elif FN_RE.match(hs):
                kind = "fn"
            elif mm := MOD_RE.match(hs):
                testish = "cfg(test)" in mm.group(1)
                kind = "testmod" if testish else "mod"
            elif IMPL_RE.match(hs):
                name, trait = impl_type(hs)
                kind = "traitimpl" if trait else f"impl:{name}"
            elif re.match(r"^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\s*\([^)]*\))?\s+)?(?:unsafe\s+)?trait\b", hs):
                kind = "trait"
            else:
                kind = "other"
            stack.append(kind)
        elif ch == "}":
            if stack:
                stack.pop()
        header_start = i + 1
    return fns, pub_types, pub_uses


def module_decls(path: Path) -> dict[str, bool]:
    """`mod x;` declarations in a module file: name → declared `pub` (exactly)."""
    code = blank_comments_and_strings(path.read_text())
    return {m.group(2): (m.group(1) or "").strip() == "pub" for m in re.finditer(r"^\s*(pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code, re.M)}


def reexported_names(uses: list[str]) -> dict[str, set[str]]:
    """`pub use child::{a, b}` / `pub use child::a` → child → {a, b}."""
    out: dict[str, set[str]] = {}
    for u in uses:
        u = re.sub(r"\s+", "", u)
        m = re.match(r"(?:self::)?(\w+)::(?:\{(.*)\}|(\w+))$", u)
        if m:
            names = m.group(2).split(",") if m.group(2) is not None else [m.group(3)]
            out.setdefault(m.group(1), set()).update(n.split("as")[0] for n in names if n)
    return out


def collect() -> list[Fn]:
    files = sorted(ENGINE.rglob("*.rs"))
    scans = {f: scan_file(f) for f in files}
    # Module reachability: every ancestor declared `pub mod`; a private module's items count when
    # the parent re-exports them by name.
    decl_of: dict[Path, dict[str, bool]] = {}
    for f in files:
        if f.name == "mod.rs":
            decl_of[f.parent] = module_decls(f)
    reexports: dict[Path, dict[str, set[str]]] = {f.parent: reexported_names(scans[f][2]) for f in files if f.name == "mod.rs"}

    def child_name(f: Path) -> str:
        return f.parent.name if f.name == "mod.rs" else f.stem

    def module_dir(f: Path) -> Path:
        return f.parent.parent if f.name == "mod.rs" else f.parent

    def reach(f: Path) -> tuple[bool, set[str] | None]:
        """(reachable, None) for a public module; (False, names) for a private one re-exporting names."""
        if f == ENGINE / "mod.rs":
            return True, None
        parent_dir = module_dir(f)
        parent_file = parent_dir / "mod.rs"
        public = decl_of.get(parent_dir, {}).get(child_name(f))
        up, _ = reach(parent_file) if parent_file.exists() else (True, None)
        if public and up:
            return True, None
        return False, reexports.get(parent_dir, {}).get(child_name(f), set()) if up else set()

    public_types: set[str] = set()
    for f in files:
        ok, names = reach(f)
        for t in scans[f][1]:
            if ok or (names and t in names):
                public_types.add(t)
    out = []
    for f in files:
        ok, names = reach(f)
        for fn in scans[f][0]:
            if fn.owner is None:
                if ok or (names and fn.name in names):
                    out.append(fn)
            elif fn.owner in public_types:
                out.append(fn)
    return out


def caller_text() -> str:
    parts = []
    for c in CALLERS:
        p = ROOT / c
        files = [p] if p.is_file() else sorted(p.rglob("*.rs")) if p.is_dir() else []
        parts.extend(blank_comments_and_strings(f.read_text()) for f in files)
    return "\n".join(parts)


def mark_used(fns: list[Fn]) -> None:
    text = caller_text()
    for fn in fns:
        n = re.escape(fn.name)
        if fn.owner is None:
            pat = rf"\b{n}\b"
        elif fn.takes_self:
            pat = rf"\.\s*{n}\s*(?:::<[^>]*>)?\s*\(|\b{re.escape(fn.owner)}::{n}\b"
        else:
            pat = rf"\b{re.escape(fn.owner)}\s*::\s*{n}\b"
        fn.used = re.search(pat, text) is not None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="list every function, not only those lacking an example")
    ap.add_argument("--check", action="store_true", help="exit 1 if a function a caller uses lacks an example")
    args = ap.parse_args()
    fns = collect()
    mark_used(fns)
    rel = lambda f: f.file.relative_to(ROOT)  # noqa: E731
    for fn in sorted(fns, key=lambda f: (str(f.file), f.line)):
        if args.all or not fn.has_example:
            flag = "example" if fn.has_example else "MISSING"
            print(f"{flag:8} {'used  ' if fn.used else 'unused'} {rel(fn)}:{fn.line} {fn.path}")
    with_ex = sum(f.has_example for f in fns)
    used_missing = [f for f in fns if f.used and not f.has_example]
    print(
        f"\npub fns in src/sim: {len(fns)}; with an example: {with_ex}; without: {len(fns) - with_ex} "
        f"(used by callers: {len(used_missing)}, unused: {len(fns) - with_ex - len(used_missing)})"
    )
    return 1 if args.check and used_missing else 0


if __name__ == "__main__":
    sys.exit(main())
