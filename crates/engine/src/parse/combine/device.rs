//! Device and software-stack facts that need several inputs:
//!
//! - `docker run` × `npu-smi info`: devices mapped into the container versus
//!   devices the node or container lists;
//! - `docker run` image tag, `SOC_VERSION` (env or `-e`) × the node type
//!   `npu-smi info` shows (A2 `910B…`, A3 `Chip  Phy-ID` layout, 310P);
//! - `pip list` / `pip show`: torch versus torch-npu (`major.minor.patch`
//!   must be equal) and vLLM versus vLLM-Ascend (`major.minor`).
//!
//! Each derived fact cites the line of the fact it rests on.

use super::derived;
use crate::facts::{Fact, FactValue};

/// Facts this combiner produces.
pub const FACTS: &[(&str, &str)] = &[
    ("device.mapped_not_visible", "`docker run` maps more `/dev/davinciN` devices than `npu-smi info` lists (Str, on the npu-smi line)"),
    ("device.partial_mapping", "`npu-smi info` lists more NPU devices than a non-privileged `docker run` maps (Str, on the docker line)"),
    ("device.image_platform_mismatch", "the image tag is built for another node type than `npu-smi info` shows (Str, on the image line)"),
    ("device.soc_env_mismatch", "`SOC_VERSION` (env or `docker run -e`) names another chip family than `npu-smi info` shows (Str, on the variable's line)"),
    ("stack.torch_npu_mismatch", "installed torch and torch-npu differ in major.minor.patch (Str `torch X vs torch-npu Y`, on the torch-npu line)"),
    ("stack.vllm_ascend_mismatch", "installed vLLM and vLLM-Ascend differ in major.minor (Str `vllm X vs vllm-ascend Y`, on the vllm-ascend line)"),
];

/// Leading `major.minor.patch` of a version (`2.10.0.post4` → [2, 10, 0],
/// `0.23.0rc1` → [0, 23, 0], `2.1` → [2, 1, 0]).
pub fn release(v: &str) -> Option<[u64; 3]> {
    let v = v.trim().trim_start_matches('v');
    let mut out = [0u64; 3];
    let mut n = 0;
    for part in v.split('.') {
        if n == 3 {
            break;
        }
        let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() {
            break;
        }
        out[n] = digits.parse().ok()?;
        n += 1;
        if digits.len() != part.len() {
            break; // `0rc1`, `0+cpu`: the release ends here
        }
    }
    (n >= 2).then_some(out)
}

fn family_of_soc(soc: &str) -> Option<&'static str> {
    let s = soc.trim().trim_matches('"').to_ascii_lowercase();
    if s.starts_with("ascend910b") || s == "910b" {
        Some("A2")
    } else if s.starts_with("ascend910_93") || s == "910c" {
        Some("A3")
    } else if s.starts_with("ascend310p") || s == "310p" {
        Some("310P")
    } else if s.contains("ascend950") {
        Some("950")
    } else {
        None
    }
}

fn text(f: &Fact) -> String {
    f.value.to_text()
}

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    let by = |name: &'static str| facts.iter().filter(move |f| f.name == name);
    let first = |name: &'static str, subject: &str| {
        facts.iter().find(|f| f.name == name && f.subject.as_deref() == Some(subject))
    };

    // docker run × npu-smi info.
    let counts: Vec<&Fact> = by("npu.count").collect();
    for run in by("docker.davinci_count") {
        let mapped = run.value.as_f64().unwrap_or(0.0) as i64;
        let access = by("docker.npu_access")
            .find(|a| a.segment == run.segment && a.line == run.line)
            .map(text)
            .unwrap_or_default();
        if access != "devices" {
            continue;
        }
        for c in &counts {
            let listed = c.value.as_f64().unwrap_or(0.0) as i64;
            if listed < mapped {
                out.extend(derived(
                    "device.mapped_not_visible",
                    None,
                    FactValue::Str(format!("docker run maps {mapped} /dev/davinci devices, npu-smi lists {listed}")),
                    c,
                ));
            } else if listed > mapped {
                out.extend(derived(
                    "device.partial_mapping",
                    None,
                    FactValue::Str(format!("npu-smi lists {listed} NPU devices, docker run maps {mapped}")),
                    run,
                ));
            }
        }
    }

    // Node type from npu-smi (first known one).
    let node = by("npu.platform").map(text).find(|p| matches!(p.as_str(), "A2" | "A3" | "310P" | "310B" | "950"));
    if let Some(node) = &node {
        for img in by("docker.image_platform") {
            let want = text(img);
            if &want != node {
                let image_line =
                    by("docker.image").find(|i| i.segment == img.segment && i.line == img.line).unwrap_or(img);
                out.extend(derived(
                    "device.image_platform_mismatch",
                    None,
                    FactValue::Str(format!(
                        "image {} is built for {want}, npu-smi shows an {node} node",
                        text(image_line)
                    )),
                    image_line,
                ));
            }
        }
        let socs = facts
            .iter()
            .filter(|f| (f.name == "env.var" || f.name == "docker.env") && f.subject.as_deref() == Some("SOC_VERSION"));
        for soc in socs {
            if let Some(fam) = family_of_soc(&text(soc)) {
                if fam != node {
                    out.extend(derived(
                        "device.soc_env_mismatch",
                        None,
                        FactValue::Str(format!("SOC_VERSION={} is for {fam}, npu-smi shows an {node} node", text(soc))),
                        soc,
                    ));
                }
            }
        }
    }

    // Python stack versions.
    if let (Some(t), Some(n)) = (first("pip.package", "torch"), first("pip.package", "torch-npu")) {
        if let (Some(a), Some(b)) = (release(&text(t)), release(&text(n))) {
            if a != b {
                out.extend(derived(
                    "stack.torch_npu_mismatch",
                    None,
                    FactValue::Str(format!("torch {} vs torch-npu {}", text(t), text(n))),
                    n,
                ));
            }
        }
    }
    if let (Some(v), Some(a)) = (first("pip.package", "vllm"), first("pip.package", "vllm-ascend")) {
        if let (Some(x), Some(y)) = (release(&text(v)), release(&text(a))) {
            if x[..2] != y[..2] {
                out.extend(derived(
                    "stack.vllm_ascend_mismatch",
                    None,
                    FactValue::Str(format!("vllm {} vs vllm-ascend {}", text(v), text(a))),
                    a,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::combine::run;

    fn fact(name: &'static str, subject: Option<&str>, value: FactValue, line: u32, segment: usize) -> Fact {
        Fact { name, subject: subject.map(String::from), value, line, text: format!("line {line}"), segment }
    }

    #[test]
    fn releases() {
        assert_eq!(release("2.10.0.post4"), Some([2, 10, 0]));
        assert_eq!(release("0.23.0rc1"), Some([0, 23, 0]));
        assert_eq!(release("0.23.0+empty"), Some([0, 23, 0]));
        assert_eq!(release("v0.9.1"), Some([0, 9, 1]));
        assert_eq!(release("2.1"), Some([2, 1, 0]));
        assert_eq!(release("abc"), None);
        assert_eq!(release("99999999999999999999999.1"), None);
    }

    #[test]
    fn versions() {
        let mut fs = vec![
            fact("pip.package", Some("torch"), FactValue::Str("2.10.0".into()), 2, 0),
            fact("pip.package", Some("torch-npu"), FactValue::Str("2.7.1.post2".into()), 3, 0),
            fact("pip.package", Some("vllm"), FactValue::Str("0.23.0+empty".into()), 4, 0),
            fact("pip.package", Some("vllm-ascend"), FactValue::Str("0.23.0rc1".into()), 5, 0),
        ];
        run(&mut fs);
        let m: Vec<_> = fs.iter().filter(|f| f.name.starts_with("stack.")).map(|f| (f.name, f.line)).collect();
        assert_eq!(m, vec![("stack.torch_npu_mismatch", 3)]);
    }

    #[test]
    fn docker_and_npu_smi() {
        let mut fs = vec![
            fact("docker.davinci_count", None, FactValue::Int(8), 1, 0),
            fact("docker.npu_access", None, FactValue::Str("devices".into()), 1, 0),
            fact("docker.image", None, FactValue::Str("roll:main-a3".into()), 9, 0),
            fact("docker.image_platform", None, FactValue::Str("A3".into()), 9, 0),
            fact("npu.count", None, FactValue::Int(4), 20, 1),
            fact("npu.platform", None, FactValue::Str("A2".into()), 20, 1),
            fact("env.var", Some("SOC_VERSION"), FactValue::Str("ascend910_9391".into()), 30, 2),
        ];
        run(&mut fs);
        let names: Vec<_> = fs.iter().filter(|f| f.name.starts_with("device.")).map(|f| (f.name, f.line)).collect();
        assert_eq!(
            names,
            vec![
                ("device.mapped_not_visible", 20),
                ("device.image_platform_mismatch", 9),
                ("device.soc_env_mismatch", 30)
            ]
        );
    }
}
