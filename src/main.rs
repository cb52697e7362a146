//! In the browser: mount the app. Natively: the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // As the OS gave them: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let (text, code) = allreduce_lab::cli::run_cli(&args);
    std::process::exit(allreduce_lab::cli::print_result(&text, code));
}
