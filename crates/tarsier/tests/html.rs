//! `--html FILE`: one self-contained page (no script, nothing fetched)
//! with the verdict, the inputs, the trace and the source with the
//! violated line marked. Headless Chromium renders it and the screenshot
//! must show the mark's colour, which a page without a violation does not
//! have. The rendering check skips with a message when no Chromium is
//! installed.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// `report::html::VIOLATION_COLOUR`, as the screenshot's pixels.
const VIOLATION_RGB: [u8; 3] = [0xff, 0x9c, 0x9c];

const FAILING: &str = "\
int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000) {
    int y = x + 1;
    return y;
  }
  return 0;
}
";

fn html_of(dir: &Path, name: &str, source: &str, flags: &[&str]) -> (PathBuf, String) {
    let file = write(dir, name, source);
    let page = dir.join(format!("{name}.html"));
    let args = [file.to_str().unwrap(), "--html", page.to_str().unwrap()];
    let out = run(args.into_iter().chain(flags.iter().copied()));
    assert!(out.stdout.contains("VERIFICATION"), "{name}: {}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{name}: no page: {e}"));
    (page, text)
}

#[test]
fn the_page_lays_the_trace_over_the_source_and_needs_nothing_outside() {
    if !front_end_ready("the_page_lays_the_trace_over_the_source_and_needs_nothing_outside") {
        return;
    }
    let dir = scratch_dir("html-page");
    let (_, page) = html_of(&dir, "fail.c", FAILING, &["--overflow-check"]);
    for needle in ["VERIFICATION FAILED", "<h2>Inputs</h2>", "x = 2147483647", "arithmetic overflow on signed +"] {
        assert!(page.contains(needle), "missing {needle}: {page}");
    }
    let marked = page.lines().filter(|l| l.contains("class=\"violated\"") && l.contains("int y = x + 1;")).count();
    assert_eq!(marked, 2, "the violated line marked in the summary and in the listing: {page}");
    for outside in ["<script", "src=", "http://", "https://", "@import", "url("] {
        assert!(!page.contains(outside), "the page reaches outside with {outside}: {page}");
    }
}

/// The first Chromium on `PATH`.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// Screenshots `page` with headless Chromium; the pixels as RGB triples.
fn screenshot(browser: &str, page: &Path, dir: &Path) -> Vec<[u8; 3]> {
    let png = page.with_extension("png");
    let mut command = Command::new(browser);
    command
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1400"])
        .arg(format!("--user-data-dir={}", dir.join("chromium-profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()));
    let out = xtask::process::run_with_timeout(&mut command, Duration::from_secs(120)).expect("chromium runs");
    let file = std::fs::File::open(&png).unwrap_or_else(|e| panic!("no screenshot ({e}): {}", out.stderr));
    let mut reader = png::Decoder::new(file).read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("one frame");
    let channels = info.color_type.samples();
    buffer[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect()
}

#[test]
fn chromium_shows_the_marked_line() {
    if !front_end_ready("chromium_shows_the_marked_line") {
        return;
    }
    let Some(browser) = chromium() else {
        println!("SKIP chromium_shows_the_marked_line: no Chromium on PATH (apt-get install chromium)");
        return;
    };
    let dir = scratch_dir("html-chromium");
    let (failed, _) = html_of(&dir, "fail.c", FAILING, &["--overflow-check"]);
    let (proved, _) = html_of(&dir, "ok.c", "int main(void) { return 0; }\n", &[]);
    let marked = |pixels: Vec<[u8; 3]>| pixels.iter().filter(|&&p| p == VIOLATION_RGB).count();
    let failed_pixels = marked(screenshot(browser, &failed, &dir));
    let proved_pixels = marked(screenshot(browser, &proved, &dir));
    // Two marked rows of text height across hundreds of pixels.
    assert!(failed_pixels > 2000, "the violated line is not marked on screen ({failed_pixels} pixels)");
    assert_eq!(proved_pixels, 0, "no violation, no mark");
}
