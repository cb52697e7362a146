// The page's wasm is split after the build (scripts/wasm_split.py): the splitter builds its call
// graph from the linker's relocations, so the page's binary keeps them (`--emit-relocs`); the
// worker and the CLI are linked as before.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=allreduce-lab=--emit-relocs");
    }
}
