//! The collectors, embedded so the page can offer them (copy, download)
//! and the CLI can print them (`roll-doctor collector [--ray]`) on machines
//! that have neither the repository nor a network: `collector/` at the
//! repository root is their source; this module only carries the text.

/// `collector/roll-doctor-collect.sh`: one node's state, read-only, POSIX sh.
pub const SHELL: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../collector/roll-doctor-collect.sh"));

/// `collector/roll-doctor-ray-collect.py`: every alive Ray node in one bundle.
pub const RAY: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../collector/roll-doctor-ray-collect.py"));

/// The file names users save them as.
pub const SHELL_NAME: &str = "roll-doctor-collect.sh";
/// The file names users save them as.
pub const RAY_NAME: &str = "roll-doctor-ray-collect.py";

#[cfg(test)]
mod tests {
    #[test]
    fn the_collectors_are_embedded_and_print_the_markers_the_segmenter_reads() {
        assert!(super::SHELL.starts_with("#!/bin/sh"));
        assert!(super::SHELL.contains("===== roll-doctor node: %s ====="));
        assert!(super::SHELL.contains("===== roll-doctor: %s ====="));
        assert!(super::RAY.contains("===== roll-doctor: expected nodes ====="));
        // What the scripts print is what the segmenter splits on.
        let segs =
            crate::segment::segment("===== roll-doctor node: n1 =====\n===== roll-doctor: ulimit -n =====\n65536\n");
        assert_eq!((segs[0].node.as_deref(), segs[0].command.as_deref()), (Some("n1"), Some("ulimit -n")));
    }
}
