//! Flamegraphs of callgrind output: folded stacks from the call graph
//! (`yardstick_format::folded`, shared with the report's `--explain`),
//! drawn by `inferno`.

#[cfg(feature = "flamegraph")]
pub use yardstick_format::folded::folded_stacks;

/// Draws `stacks` as an SVG.
///
/// # Errors
///
/// When inferno fails (it reports why).
#[cfg(feature = "flamegraph")]
pub fn draw(
    stacks: &[String],
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> Result<Vec<u8>, String> {
    let mut opts = options(style, title, count_name);
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, stacks.iter().map(String::as_str), &mut svg)
        .map_err(|e| format!("flamegraph: {e}"))?;
    Ok(svg)
}

/// Draws the differential flamegraph of `old` → `new` (red: grew, blue:
/// shrank; reversed on the old shape with `negate_differential`).
///
/// # Errors
///
/// When inferno fails (it reports why).
#[cfg(feature = "flamegraph")]
pub fn draw_diff(
    old: &[String],
    new: &[String],
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> Result<Vec<u8>, String> {
    let before = old.join("\n");
    let after = new.join("\n");
    let diff_opts = inferno::differential::Options {
        normalize: style.normalize_differential,
        ..Default::default()
    };
    let mut folded = Vec::new();
    inferno::differential::from_readers(
        diff_opts,
        before.as_bytes(),
        after.as_bytes(),
        &mut folded,
    )
    .map_err(|e| format!("differential flamegraph: {e}"))?;
    let folded = String::from_utf8_lossy(&folded).into_owned();
    let mut opts = options(style, title, count_name);
    opts.negate_differentials = style.negate_differential;
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, folded.lines(), &mut svg)
        .map_err(|e| format!("differential flamegraph: {e}"))?;
    Ok(svg)
}

/// inferno's options for `style`.
#[cfg(feature = "flamegraph")]
fn options<'a>(
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> inferno::flamegraph::Options<'a> {
    let mut opts = inferno::flamegraph::Options::default();
    opts.title = title.to_owned();
    opts.count_name = count_name.to_owned();
    opts.subtitle = style.subtitle.clone();
    if style.direction == crate::config::Direction::TopToBottom {
        opts.direction = inferno::flamegraph::Direction::Inverted;
    }
    if let Some(w) = style.min_width {
        opts.min_width = w;
    }
    opts
}

#[cfg(all(test, feature = "flamegraph"))]
mod tests {
    use super::*;
    use crate::parser::parse_str;

    const PROFILE: &str = "events: Ir
fn=measure
1 10
cfn=fib
calls=1 1
1 90
fn=fib
1 50
cfn=helper
calls=3 1
1 40
fn=helper
1 40
";

    #[test]
    fn draws_svg() {
        let p = parse_str(PROFILE).unwrap();
        let stacks = folded_stacks(&p, 0, "measure");
        let plain = crate::config::FlamegraphConfig::default();
        let svg = draw(&stacks, &plain, "t", "Ir").unwrap();
        let text = String::from_utf8_lossy(&svg);
        assert!(text.contains("<svg"));
        assert!(!text.contains("under the title"));
        let diff = draw_diff(&stacks, &stacks, &plain, "t", "Ir").unwrap();
        assert!(String::from_utf8_lossy(&diff).contains("<svg"));
        // The options reach inferno: the subtitle is drawn, the inverted
        // graph differs from the plain one.
        let mut styled = crate::config::FlamegraphConfig::default();
        styled
            .subtitle("under the title")
            .direction(crate::config::Direction::TopToBottom)
            .min_width(0.0)
            .negate_differential(true)
            .normalize_differential(true);
        let svg = draw(&stacks, &styled, "t", "Ir").unwrap();
        assert!(String::from_utf8_lossy(&svg).contains("under the title"));
        let mut inverted = crate::config::FlamegraphConfig::default();
        inverted.direction(crate::config::Direction::TopToBottom);
        assert_ne!(
            draw(&stacks, &inverted, "t", "Ir").unwrap(),
            draw(&stacks, &plain, "t", "Ir").unwrap()
        );
        assert!(draw_diff(&stacks, &stacks, &styled, "t", "Ir").is_ok());
    }
}
