//! The versions of the Ascend software stack, from the files its installers
//! write (what `cat` prints; the collector runs exactly these):
//!
//! ```text
//! # cat /usr/local/Ascend/driver/version.info
//! Version=24.1.rc2.2
//! ascendhal_version=7.35.23
//! Innerversion=V100R001C18SPC001B233
//! compatible_version_fw=[7.0.0,7.2.99]
//! package_version=24.1.rc2.2
//! # cat /usr/local/Ascend/firmware/version.info
//! Version=7.7.0.1.231
//! # cat /usr/local/Ascend/ascend-toolkit/latest/*/ascend_toolkit_install.info
//! package_name=Ascend-cann-toolkit
//! version=8.0.RC2
//! ```
//!
//! Which component a file describes comes from its path in the command
//! (`driver/`, `firmware/`, anything else under `Ascend/` is CANN) or, with
//! no command, from its keys (`ascendhal_version` is the driver's,
//! `package_name=Ascend-cann-…` CANN's). `version.cfg`'s
//! `runtime_running_version=[7.3.0.1.231:8.0.RC2]` gives the CANN release
//! after the colon. Facts: `stack.driver_version`, `stack.firmware_version`,
//! `stack.cann_version` (the release as printed, on its line).

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("stack.driver_version", ValueType::Str, None, "NPU driver release from driver/version.info (`package_version`, else `Version`) (Str)"),
    FactDef::new("stack.firmware_version", ValueType::Str, None, "NPU firmware release from firmware/version.info `Version` (Str)"),
    FactDef::new("stack.cann_version", ValueType::Str, None, "CANN release from ascend_toolkit_install.info / version.info `version`, or version.cfg's running version (Str)"),
];

/// How strongly a command names this kind: it shows an Ascend version file.
pub fn command(cmd: &str) -> u8 {
    let file = cmd.contains("version.info") || cmd.contains("install.info") || cmd.contains("version.cfg");
    if file && cmd.contains("Ascend") {
        95
    } else if file {
        70
    } else {
        0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Component {
    Driver,
    Firmware,
    Cann,
}

fn component_of_command(cmd: &str) -> Option<Component> {
    if cmd.contains("/driver/") || cmd.contains("driver/version.info") {
        Some(Component::Driver)
    } else if cmd.contains("/firmware/") || cmd.contains("firmware/version.info") {
        Some(Component::Firmware)
    } else if command(cmd) > 0 {
        Some(Component::Cann)
    } else {
        None
    }
}

fn key_value(t: &str) -> Option<(&str, &str)> {
    let (k, v) = t.trim().split_once('=')?;
    let k = k.trim();
    (!k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| (k, v.trim()))
}

/// How much a segment looks like a version file when no command named it.
/// Only a block that is mostly `key=value` lines: one pasted with other
/// output and no blank line between (an RPM list, `npu-smi` board output, a
/// log) is read as a log, so its other lines are still scanned.
pub fn score(seg: &Segment) -> u8 {
    let (mut best, mut pairs, mut lines) = (0, 0usize, 0usize);
    for l in seg.lines.iter().take(50).filter(|l| !l.text.trim().is_empty()) {
        lines += 1;
        if let Some((k, v)) = key_value(&l.text) {
            pairs += 1;
            if k == "ascendhal_version" || (k == "package_name" && v.starts_with("Ascend-cann")) {
                best = 85;
            } else if k == "runtime_running_version" {
                best = best.max(80);
            }
        }
    }
    if pairs * 2 < lines {
        return 0;
    }
    best
}

/// The CANN release of `runtime_running_version=[7.3.0.1.231:8.0.RC2]`.
fn running_release(v: &str) -> Option<&str> {
    let inner = v.trim().trim_start_matches('[').trim_end_matches(']');
    let rel = inner.rsplit(':').next()?.trim();
    (!rel.is_empty()).then_some(rel)
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let by_command = seg.command.as_deref().and_then(component_of_command);
    let by_content = seg.lines.iter().find_map(|l| match key_value(&l.text) {
        Some(("ascendhal_version", _)) => Some(Component::Driver),
        Some(("package_name", v)) if v.starts_with("Ascend-cann") => Some(Component::Cann),
        Some(("runtime_running_version", _)) => Some(Component::Cann),
        _ => None,
    });
    let Some(component) = by_command.or(by_content) else { return };
    let mut version: Option<(&str, &Line)> = None;
    let mut package: Option<(&str, &Line)> = None;
    for l in &seg.lines {
        match key_value(&l.text) {
            Some(("Version" | "version", v)) if version.is_none() && !v.is_empty() => version = Some((v, l)),
            Some(("package_version", v)) if !v.is_empty() => package = Some((v, l)),
            Some(("runtime_running_version", v)) if version.is_none() => {
                if let Some(rel) = running_release(v) {
                    version = Some((rel, l));
                }
            }
            _ => {}
        }
    }
    let (name, found) = match component {
        Component::Driver => ("stack.driver_version", package.or(version)),
        Component::Firmware => ("stack.firmware_version", version),
        Component::Cann => ("stack.cann_version", version.or(package)),
    };
    if let Some((v, line)) = found {
        sink.push(name, None, FactValue::Str(v.to_string()), line);
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::facts_of;

    fn got(text: &str) -> Vec<(&'static str, String)> {
        facts_of(text, super::parse).into_iter().map(|f| (f.name, f.value.to_text())).collect()
    }

    #[test]
    fn driver_firmware_and_cann() {
        let driver = "$ cat /usr/local/Ascend/driver/version.info\nVersion=24.1.rc2.2\nascendhal_version=7.35.23\naicpu_version=1.0\nInnerversion=V100R001C18SPC001B233\ncompatible_version=[V100R001C30],[V100R001C13]\ncompatible_version_fw=[7.0.0,7.2.99]\npackage_version=24.1.rc2.2\n";
        assert_eq!(got(driver), vec![("stack.driver_version", "24.1.rc2.2".into())]);
        let fw = "$ cat /usr/local/Ascend/firmware/version.info\nVersion=7.7.0.1.231\n";
        assert_eq!(got(fw), vec![("stack.firmware_version", "7.7.0.1.231".into())]);
        let cann = "$ cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info\npackage_name=Ascend-cann-toolkit\nversion=8.0.RC2\ninnerversion=V100R001C18SPC001B206\n";
        assert_eq!(got(cann), vec![("stack.cann_version", "8.0.RC2".into())]);
        let cfg = "$ cat /usr/local/Ascend/ascend-toolkit/latest/version.cfg\n# version: 1.0\nruntime_running_version=[7.3.0.1.231:8.0.RC2]\n";
        assert_eq!(got(cfg), vec![("stack.cann_version", "8.0.RC2".into())]);
        // No command: the keys tell.
        assert_eq!(
            got("Version=25.0.rc1.1\nascendhal_version=7.35.23\npackage_version=25.0.rc1.1\n")[0].1,
            "25.0.rc1.1"
        );
    }

    #[test]
    fn missing_files_and_noise_give_nothing() {
        assert!(got("$ cat /usr/local/Ascend/driver/version.info\ncat: /usr/local/Ascend/driver/version.info: No such file or directory\n").is_empty());
        assert!(got("[roll-doctor] skipped: cat not found\n").is_empty());
        assert!(got("Version=\n").is_empty());
    }

    /// A hiascend forum post pastes the driver's version.info with an RPM
    /// list, `npu-smi` board output and a log, no blank line between: the
    /// block is not a version file (it would hide the log from the scan).
    #[test]
    fn a_block_of_other_output_with_a_few_version_keys_is_not_a_version_file() {
        let score = |t: &str| super::score(&crate::segment::segment(t)[0]);
        let file = "Version=22.0.4.2\nascendhal_version=6.17.28\npackage_version=6.0.0.2\n";
        assert_eq!(score(file), 85);
        let mixed = format!(
            "Ascend310P-driver-22.0.4.2-1.aarch64\n{file}NPU ID : 2\nProduct Name : IT21PDDA011\nChip Count : 1\nCANN版本:6.0.1\n[WARNING] DRV(6206,python):2025-01-10-02:56:41.671.296 wait_logic_cq abnormal\n"
        );
        assert_eq!(score(&mixed), 0);
    }
}
