#!/usr/bin/env python3
"""Trunk post-build hook: splits the page's wasm into a main module and modules loaded later.

The page's sections after the first figure (the lab, the chapter's later sections, the NCCL
section) are `#[wasm_split]` functions (src/main.rs): Dioxus's wasm-split-cli (0.7.10, with
scripts/wasm-split-cli-0.7.10.patch; scripts/setup.sh builds it) moves what only they reach into
modules of their own, which the page fetches when their turns come (src/ui/components/root.rs:
`Lazy`). The main module shrinks from about 528 KB gzip to about 237 KB.

What it needs from the build (index.html, Cargo.toml, build.rs): the page's bin linked with
`--emit-relocs`, its profile not stripped, wasm-bindgen run with `--no-demangle` (the splitter
matches the functions of the rustc and the wasm-bindgen modules by their mangled names), and no
wasm-opt by Trunk (it drops the relocations): wasm-opt runs here, on each module.

Steps:
 1. wasm-split-cli split <rustc .wasm> <staged _bg.wasm> <tmp dir>
 2. wasm-opt the main module (-> the staged _bg.wasm, same name) and each split module
    (-> <bin>-<hash16>-<name>.wasm)
 3. write __wasm_split-<hash16>.js (the splitter's loader, its modules' URLs resolved against
    import.meta.url, `initSync` imported from the hashed wasm-bindgen JS) and point the
    wasm-bindgen JS's `./__wasm_split.js` imports at it
 4. replace the sha384 integrity hashes in index.html of the files changed

Usage: wasm_split.py [STAGING_DIR]   (defaults to $TRUNK_STAGING_DIR; $TRUNK_PROFILE picks the
cargo profile: release -> wasm-release, else debug; $CARGO_TARGET_DIR or ./target)
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FEATURES = ("--enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int "
            "--enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue")


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def short(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def wasm_opt(src: Path, dst: Path, args: list[str]) -> None:
    subprocess.run(["wasm-opt", *args, str(src), "-o", str(dst)], check=True)


def main() -> int:
    staging = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"])
    bin_name = "allreduce-lab"
    # index.html: the page's release builds use the wasm-release profile.
    profile = "wasm-release" if os.environ.get("TRUNK_PROFILE") == "release" else "debug"
    target = Path(os.environ.get("CARGO_TARGET_DIR", "target"))
    original = target / "wasm32-unknown-unknown" / profile / f"{bin_name}.wasm"
    if shutil.which("wasm-split-cli") is None:
        print("wasm_split.py: wasm-split-cli is not on PATH: run scripts/setup.sh")
        return 1
    # binaryen's, from npm (package.json), the version Trunk.toml pins for the worker's build.
    version = subprocess.run(["wasm-opt", "--version"], capture_output=True, text=True).stdout
    if "version 132" not in version:
        print(f"wasm_split.py: wasm-opt is not binaryen 132 (node_modules/.bin on PATH?): {version!r}")
        return 1
    # -Oz twice (the second runs the pipeline again): 2.1 KB less gzip than once, for 20 s more.
    opt_args = f"{FEATURES} -Oz -Oz".split()

    bgs = [p for p in staging.glob(f"{bin_name}-*_bg.wasm")
           if re.fullmatch(re.escape(bin_name) + r"-[0-9a-f]+_bg\.wasm", p.name)]
    if len(bgs) != 1:
        print(f"wasm_split.py: expected one {bin_name}-<hash>_bg.wasm in {staging}, got {bgs}")
        return 1
    bg = bgs[0]
    js = bg.with_name(bg.name.replace("_bg.wasm", ".js"))
    old = {p: p.read_bytes() for p in (bg, js)}

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "split"
        subprocess.run(["wasm-split-cli", "split", str(original), str(bg), str(out)], check=True)
        # 2. the main module, optimised, under its old name
        wasm_opt(out / "main.wasm", bg, opt_args)
        renames = {}
        for part in sorted(out.glob("*.wasm")):
            if part.name == "main.wasm":
                continue
            opt = Path(tmp) / ("opt-" + part.name)
            wasm_opt(part, opt, opt_args)
            data = opt.read_bytes()
            name = f"{bin_name}-{short(data)}-{part.stem}.wasm"
            (staging / name).write_bytes(data)
            renames[part.name] = name
        # 3. the loader glue
        glue = (out / "__wasm_split.js").read_text()
        main_import = 'import { initSync } from "./main.js";'
        if glue.count(main_import) != 1:
            print("wasm_split.py: the splitter's loader does not import initSync from ./main.js once")
            return 1
        glue = glue.replace(main_import, f'import {{ initSync }} from "./{js.name}";')

        def url(m: re.Match) -> str:
            return f'new URL("./{renames[m.group(1)]}", import.meta.url)'

        glue, urls = re.subn(r'"/harness/split/([^"]+\.wasm)"', url, glue)
        if urls != len(renames) or "/harness/" in glue:
            print(f"wasm_split.py: {urls} module URLs in the splitter's loader for {len(renames)} modules")
            return 1
        glue_name = f"__wasm_split-{short(glue.encode())}.js"
        (staging / glue_name).write_text(glue)
        text = js.read_text()
        # only the import statements: the import object's key stays "./__wasm_split.js" (the wasm's
        # import module name)
        new_text = re.sub(r'(\bfrom\s*)(["\'])\./__wasm_split\.js\2', lambda m: f'{m.group(1)}"./{glue_name}"', text)
        if new_text == text:
            print("wasm_split.py: the wasm-bindgen JS does not import ./__wasm_split.js")
            return 1
        js.write_text(new_text)

    # 4. integrity hashes
    html = staging / "index.html"
    page = html.read_text()
    for p, before in old.items():
        if sri(before) not in page:
            print(f"wasm_split.py: index.html has no integrity hash of {p.name}")
            return 1
        page = page.replace(sri(before), sri(p.read_bytes()))
    html.write_text(page)
    for p in sorted(staging.glob(f"{bin_name}-*.wasm")):
        print(f"wasm_split.py: {p.name} {p.stat().st_size} B")
    return 0


if __name__ == "__main__":
    sys.exit(main())
