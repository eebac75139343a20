//! How the single-file page carries its two WebAssembly modules.
//!
//! The app module, with the stylesheet after it, is xz-compressed (`xz -9e`:
//! 28 % smaller than `gzip -9` on this wasm); the small unpacker module that inflates it in the browser is
//! gzip-compressed (the browser's `DecompressionStream` inflates that).
//!
//! Both are embedded in a data element in one of two encodings:
//! - **base64**, in the served page (`dist/index.html`, UTF-8): safe whatever
//!   charset a web server declares, and gzip on the wire removes most of
//!   base64's cost anyway;
//! - **cp1252** in the offline file (`dist/roll-doctor.html`), declared
//!   `windows-1252`: one byte of the file per byte of data, where base64
//!   takes 4 per 3. In windows-1252 every byte is one character, so the
//!   loader maps the element's text back to bytes. Only what the HTML parser
//!   would change is escaped: NUL (read as U+FFFD), CR (line ends are
//!   normalised to LF) and `<` (it could close the element), plus the escape
//!   byte itself. The rest of that page must then be ASCII (checked).

use std::io::Write;
use std::process::{Command, Stdio};

/// The escape byte of the cp1252 encoding: `ESC, b ^ 0x40` stands for `b`.
/// `web/loader.js` (`cp1252Bytes`) decodes it.
pub const ESC: u8 = 0x01;
const ESCAPED: [u8; 4] = [0x00, b'\r', b'<', ESC];

/// The cp1252 encoding of `data` (see the module comment).
pub fn cp1252(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 64);
    for &b in data {
        if ESCAPED.contains(&b) {
            out.extend([ESC, b ^ 0x40]);
        } else {
            out.push(b);
        }
    }
    out
}

/// The size of the LZMA2 dictionary the app module is written with and the
/// loader gives the unpacker: the next power of two at or above the module's
/// size (a larger one compresses no better and costs the browser memory).
pub fn dict_size(len: usize) -> usize {
    len.next_power_of_two().max(1 << 20)
}

fn filter(program: &str, args: &[&str], bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("stdin")?;
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| format!("{program}: {e}"))?;
    writer.join().map_err(|_| format!("{program} writer"))?.map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} failed"));
    }
    Ok(out.stdout)
}

pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    filter("gzip", &["-9", "-n", "-c"], bytes)
}

/// `xz -9e` with a CRC32 check (the unpacker checks nothing else) and a
/// dictionary of [`dict_size`].
pub fn xz(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let lzma2 = format!("--lzma2=preset=9e,dict={}", dict_size(bytes.len()));
    filter("xz", &["--format=xz", "--check=crc32", &lzma2, "-c"], bytes)
}

/// Non-ASCII characters of the page's HTML and script written as
/// escapes of each language, so the text means the same in the offline
/// file's windows-1252 as in UTF-8.
pub fn ascii_html(text: &str) -> String {
    escape(text, |c| format!("&#x{:x};", c as u32))
}

/// JavaScript: `\uXXXX` (a surrogate pair outside the BMP); valid in
/// strings, regular expressions and comments alike.
pub fn ascii_js(text: &str) -> String {
    escape(text, |c| {
        let mut units = [0u16; 2];
        c.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect()
    })
}

/// Styles without comments and indentation. Our own stylesheet, which
/// has no `/*` inside a string (checked: it is left whole otherwise).
pub fn compact_css(text: &str) -> String {
    if ['"', '\''].iter().any(|&q| text.split(q).skip(1).step_by(2).any(|s| s.contains("/*"))) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        match rest[i..].find("*/") {
            Some(j) => rest = &rest[i + j + 2..],
            None => return text.to_string(),
        }
    }
    out.push_str(rest);
    unindent(&out)
}

fn unindent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().map(str::trim_start).filter(|l| !l.is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn escape(text: &str, esc: impl Fn(char) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&esc(c));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the loader does with the element's text, byte for byte.
    fn decode(enc: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut it = enc.iter();
        while let Some(&b) = it.next() {
            out.push(if b == ESC { it.next().expect("escape at the end") ^ 0x40 } else { b });
        }
        out
    }

    #[test]
    fn cp1252_leaves_nothing_the_html_parser_changes_and_round_trips() {
        let all: Vec<u8> = (0..=255u8).cycle().take(256 * 8).collect();
        let enc = cp1252(&all);
        for bad in [0x00, b'\r', b'<'] {
            assert!(!enc.contains(&bad), "byte {bad:#04x} left raw");
        }
        // Every escape is followed by a byte that is itself safe and not an escape.
        for w in enc.windows(2).filter(|w| w[0] == ESC) {
            assert!(!ESCAPED.contains(&w[1]), "{w:?}");
        }
        assert_eq!(decode(&enc), all);
        assert_eq!(enc.len(), all.len() + 4 * 8);
    }

    #[test]
    fn ascii_escapes_keep_the_meaning() {
        assert_eq!(ascii_html("a 需要 b"), "a &#x9700;&#x8981; b");
        assert_eq!(ascii_js("\"无法\" 😀"), "\"\\u65e0\\u6cd5\" \\ud83d\\ude00");
        for s in [ascii_html("é"), ascii_js("é")] {
            assert!(s.is_ascii());
        }
    }

    #[test]
    fn compacting_keeps_what_matters() {
        assert_eq!(compact_css("/* c */\n.a {\n  color: red; /* x */\n}\n"), ".a {\ncolor: red; \n}\n");
        let quoted = ".a::before { content: \"/* no */\"; }\n";
        assert_eq!(compact_css(quoted), quoted);
    }

    #[test]
    fn dictionary_covers_the_module() {
        assert_eq!(dict_size(2_869_699), 4 << 20);
        assert_eq!(dict_size(4 << 20), 4 << 20);
        assert_eq!(dict_size(10), 1 << 20);
    }
}
