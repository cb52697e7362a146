#!/usr/bin/env python3
"""Trunk post-build hook: drops the custom sections of the built .wasm files that only a debugger
or a toolchain reads, and keeps the page's Subresource Integrity hashes true.

wasm-bindgen writes a `name` section (names of its shims and imports, 7.2 KB of the page's wasm)
and a `producers` section even when Cargo's profile strips the Rust code's names; the browser never
reads them. Trunk has already written index.html with each file's sha384, so the hash of every
file changed here is replaced there too.

Usage: strip_wasm.py [DIR]   (DIR defaults to $TRUNK_STAGING_DIR)
"""

import base64
import hashlib
import os
import sys
from pathlib import Path

DROPPED = {"name", "producers"}


def leb128(data: bytes, i: int) -> tuple[int, int]:
    """The unsigned LEB128 number at data[i:], and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def strip(data: bytes) -> bytes:
    """`data` without its custom sections named in DROPPED; every other byte as it was."""
    if data[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    out = bytearray(data[:8])
    i = 8
    while i < len(data):
        start = i
        section = data[i]
        size, body = leb128(data, i + 1)
        end = body + size
        if end > len(data):
            raise ValueError("a section runs past the end of the module")
        if section == 0:
            length, name_at = leb128(data, body)
            name = data[name_at : name_at + length].decode("utf-8", "replace")
            if name in DROPPED:
                i = end
                continue
        out += data[start:end]
        i = end
    return bytes(out)


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"])
    pages = list(root.glob("*.html"))
    for wasm in sorted(root.glob("*.wasm")):
        before = wasm.read_bytes()
        after = strip(before)
        if after == before:
            continue
        wasm.write_bytes(after)
        old, new = sri(before), sri(after)
        for page in pages:
            text = page.read_text()
            if old in text:
                page.write_text(text.replace(old, new))
        print(f"strip_wasm: {wasm.name} {len(before)} -> {len(after)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
