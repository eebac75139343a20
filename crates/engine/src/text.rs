//! Bilingual text. Every user-visible string the engine produces is a [`Text`]
//! with both an English and a Chinese form; the caller picks one with [`Lang`].

use serde::{Deserialize, Serialize};

/// The two languages the product speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Parses `en`, `zh`, and browser tags such as `zh-CN` or `en-US`.
    pub fn parse(tag: &str) -> Option<Lang> {
        let t = tag.trim().to_ascii_lowercase();
        if t == "zh" || t.starts_with("zh-") || t.starts_with("zh_") {
            Some(Lang::Zh)
        } else if t == "en" || t.starts_with("en-") || t.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The short code, `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// A string in English and Chinese.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh: String,
}

impl Text {
    /// Builds a text from its two forms.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Text {
        Text { en: en.into(), zh: zh.into() }
    }

    /// The form for `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// True when both forms are non-empty and the Chinese form holds at
    /// least one CJK character (a copy of the English is not a translation).
    pub fn is_complete(&self) -> bool {
        !self.en.trim().is_empty() && !self.zh.trim().is_empty() && has_cjk(&self.zh)
    }
}

/// Removes the spaces YAML line folding puts between two Chinese
/// characters (`>-` blocks join lines with a space, which reads as a stray
/// gap in Chinese), and any space beside full-width punctuation (`源上： vLLM`,
/// `、 \`triton\``: Chinese sets none there). A space between a Chinese
/// character and Latin text is kept (`在 ROLL 中`).
pub fn tidy_zh(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' && i > 0 && i + 1 < chars.len() {
            let (before, after) = (chars[i - 1], chars[i + 1]);
            if (is_cjk(before) && is_cjk(after)) || is_cjk_punctuation(before) || is_cjk_punctuation(after) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Ideographic punctuation (`、。「」`) and the full-width forms of ASCII
/// punctuation (`，：；（）！？`), not the full-width letters and digits.
fn is_cjk_punctuation(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0xFF00..=0xFFEF)
}

/// True when `s` holds a CJK ideograph or CJK punctuation.
pub fn has_cjk(s: &str) -> bool {
    s.chars().any(is_cjk)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_parses_browser_tags() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en-US"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
    }

    #[test]
    fn folded_chinese_loses_stray_spaces() {
        assert_eq!(tidy_zh("放弃。 对端 rank 要么"), "放弃。对端 rank 要么");
        // Beside full-width punctuation, also next to Latin text.
        assert_eq!(tidy_zh("源上： vLLM-Ascend 会锁定（`a`、 `b`） 版本"), "源上：vLLM-Ascend 会锁定（`a`、`b`）版本");
        // Between Chinese and Latin text the space stays.
        assert_eq!(tidy_zh("在 ROLL 中 (a) 的 `x`"), "在 ROLL 中 (a) 的 `x`");
    }

    #[test]
    fn copied_english_is_not_a_translation() {
        assert!(!Text::new("Port busy", "Port busy").is_complete());
        assert!(Text::new("Port busy", "端口被占用").is_complete());
    }
}
