//! The executable the binary benchmarks run.
//!
//! - `cg-tool count FILE`: prints the number of words in FILE (exit 1 when it
//!   cannot be read);
//! - `cg-tool exit N`: exits with code N;
//! - `cg-tool env KEY`: prints the variable KEY, or `<unset>`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["count", file] => match std::fs::read_to_string(file) {
            Ok(text) => println!("{}", text.split_whitespace().count()),
            Err(e) => {
                eprintln!("cg-tool: cannot read {file}: {e}");
                std::process::exit(1);
            }
        },
        ["exit", code] => std::process::exit(code.parse().unwrap_or(1)),
        ["env", key] => println!(
            "{}",
            std::env::var(key).unwrap_or_else(|_| "<unset>".to_owned())
        ),
        _ => {
            eprintln!("usage: cg-tool count FILE | exit N | env KEY");
            std::process::exit(2);
        }
    }
}
