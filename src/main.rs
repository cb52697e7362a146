//! In the browser: mount the app. Natively: the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (text, code) = allreduce_lab::cli::run_cli(&args);
    if code == 0 {
        println!("{}", text.trim_end());
    } else {
        eprintln!("{}", text.trim_end());
    }
    std::process::exit(code);
}
