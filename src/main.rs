//! In the browser: mount the app. Natively: the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // As the OS gave them: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `sweep`'s rows as they come, then the rest (`print_result` reports a failed write).
    let (text, code) = allreduce_lab::cli::run_cli_to(&args, &mut |s: &str| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        out.write_all(s.as_bytes())?;
        out.flush()
    });
    std::process::exit(allreduce_lab::cli::print_result(&text, code));
}
