//! In the browser: mount the app. Natively: the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // As the OS gave them: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `sweep`'s rows as they come, then the rest. A failed write of the rows ends it as
    // `print_result` ends a failed write of the rest: a reader gone is a normal end, anything
    // else one line and status 1 (not the rest written after a passing error, rows missing).
    let mut failed: Option<std::io::Error> = None;
    let (text, code) = allreduce_lab::cli::run_cli_to(&args, &mut |s: &str| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let written = out.write_all(s.as_bytes()).and_then(|()| out.flush());
        if let Err(e) = &written {
            failed.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        }
        written
    });
    let code = match failed {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Some(e) => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: cannot write the output: {e}"
            );
            1
        }
        None => allreduce_lab::cli::print_result(&text, code),
    };
    std::process::exit(code);
}
