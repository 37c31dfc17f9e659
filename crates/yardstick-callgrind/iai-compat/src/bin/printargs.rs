//! The README's `benchmark-tests-printargs`: prints its arguments; with
//! `--foo=FILE`, the file's length; `exit N` exits with N.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [cmd, code] = args.as_slice() {
        if cmd == "exit" {
            std::process::exit(code.parse().unwrap_or(1));
        }
    }
    for arg in &args {
        match arg.strip_prefix("--foo=") {
            Some(file) => match std::fs::read_to_string(file) {
                Ok(text) => println!("{file}: {} bytes", text.len()),
                Err(e) => {
                    eprintln!("cannot read {file}: {e}");
                    std::process::exit(2);
                }
            },
            None => println!("{arg}"),
        }
    }
}
