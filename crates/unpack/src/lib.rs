//! The page's unpacker. `dist/roll-doctor.html` carries the app's
//! WebAssembly module xz-compressed (28 % smaller than gzip, which is all
//! the browser's `DecompressionStream` offers); this small module, itself
//! gzip-compressed, inflates it in the browser before the app is compiled.
//!
//! On wasm32 it has no std and no allocator: the loader asks for space
//! ([`space`]), writes the compressed bytes there and calls [`inflate`] with
//! three regions of that space (input, output, dictionary).
#![cfg_attr(target_arch = "wasm32", no_std)]

use xz4rust::{XzDecoder, XzNextBlockResult};

/// Why the module could not be inflated: the page's embedded data is damaged
/// (a transfer that changed bytes, an editor that re-encoded the file).
#[derive(Debug, PartialEq, Eq)]
pub enum Damaged {
    /// The xz stream is corrupt or its CRC32 does not match.
    Corrupt,
    /// The stream ended early, or holds more than the output has room for.
    Truncated,
}

impl Damaged {
    /// The code [`inflate`] returns to the loader.
    pub const fn code(&self) -> isize {
        match self {
            Damaged::Corrupt => -1,
            Damaged::Truncated => -2,
        }
    }
}

/// Inflates one xz stream into `output`, using `dict` as the LZMA2
/// dictionary (it must be at least the size the stream was written with).
/// Returns the number of bytes written.
pub fn inflate_into(input: &[u8], output: &mut [u8], dict: &mut [u8]) -> Result<usize, Damaged> {
    let mut decoder = XzDecoder::with_fixed_size_dict(dict);
    let (mut read, mut written) = (0usize, 0usize);
    loop {
        match decoder.decode(&input[read..], &mut output[written..]) {
            Ok(XzNextBlockResult::EndOfStream(_, out)) => return Ok(written + out),
            // No progress: the input ran out, or the output is full.
            Ok(XzNextBlockResult::NeedMoreData(0, 0)) => return Err(Damaged::Truncated),
            Ok(XzNextBlockResult::NeedMoreData(inp, out)) => {
                read += inp;
                written += out;
            }
            Err(_) => return Err(Damaged::Corrupt),
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use core::arch::wasm32;

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        wasm32::unreachable()
    }

    /// Grows the memory by at least `bytes` and returns where the new space
    /// starts (null when the browser refuses the memory). Nothing in this
    /// module allocates, so the space is the loader's.
    #[no_mangle]
    pub extern "C" fn space(bytes: usize) -> *mut u8 {
        let old_pages = wasm32::memory_grow(0, bytes.div_ceil(65536));
        if old_pages == usize::MAX {
            return core::ptr::null_mut();
        }
        (old_pages * 65536) as *mut u8
    }

    /// Inflates `in_len` bytes at `input` into `output` (room for `out_len`)
    /// with a dictionary of `dict_len` bytes. Returns the bytes written, or
    /// a negative [`super::Damaged::code`].
    ///
    /// # Safety
    /// The three regions must lie in space returned by [`space`] and must
    /// not overlap.
    #[no_mangle]
    pub unsafe extern "C" fn inflate(
        input: *const u8,
        in_len: usize,
        output: *mut u8,
        out_len: usize,
        dict: *mut u8,
        dict_len: usize,
    ) -> isize {
        // SAFETY: the loader passes disjoint regions of the space it asked for.
        let (input, output, dict) = unsafe {
            (
                core::slice::from_raw_parts(input, in_len),
                core::slice::from_raw_parts_mut(output, out_len),
                core::slice::from_raw_parts_mut(dict, dict_len),
            )
        };
        match super::inflate_into(input, output, dict) {
            Ok(n) => n as isize,
            Err(e) => e.code(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// What `cargo xtask dist` writes: `xz --check=crc32` with a dictionary
    /// the size of the buffer the loader gives. None when `xz` is missing
    /// (`cargo xtask setup` installs it).
    fn xz(data: &[u8], dict: usize) -> Option<Vec<u8>> {
        let mut child = Command::new("xz")
            .args(["--format=xz", "--check=crc32", &format!("--lzma2=preset=9e,dict={dict}"), "-c"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        let input = data.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().ok()?;
        writer.join().ok()?.ok()?;
        out.status.success().then_some(out.stdout)
    }

    fn sample() -> Vec<u8> {
        // Compressible and not: text, then a pseudo-random tail.
        let mut data = b"(module (func $f (export \"f\")))\n".repeat(3000);
        let mut x: u32 = 0x1234_5678;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            data.push(x as u8);
        }
        data
    }

    #[test]
    fn inflates_what_xz_wrote_and_rejects_damage() {
        let data = sample();
        let dict = 1 << 20;
        let Some(packed) = xz(&data, dict) else {
            eprintln!("skipped: no `xz` on this machine (cargo xtask setup installs xz-utils)");
            return;
        };
        let mut out = vec![0u8; data.len()];
        let mut dictionary = vec![0u8; dict];
        assert_eq!(inflate_into(&packed, &mut out, &mut dictionary), Ok(data.len()));
        assert_eq!(out, data);

        // One flipped byte in the middle: the LZMA data or its CRC32 no longer holds.
        let mut flipped = packed.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x55;
        assert!(inflate_into(&flipped, &mut out, &mut dictionary).is_err());

        // Cut short, or an output buffer too small: an error, not a panic or a loop.
        for cut in [1, 20, packed.len() / 2] {
            assert!(inflate_into(&packed[..packed.len() - cut], &mut out, &mut dictionary).is_err(), "cut {cut}");
        }
        let mut small = vec![0u8; data.len() - 1];
        assert!(inflate_into(&packed, &mut small, &mut dictionary).is_err());
        // Not xz at all.
        assert_eq!(inflate_into(b"<!DOCTYPE html>", &mut out, &mut dictionary), Err(Damaged::Corrupt));
    }
}
