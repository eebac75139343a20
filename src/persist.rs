//! What the page keeps in localStorage between visits (wasm32 only): the
//! inputs (labels, texts, kind overrides) and the session (answers,
//! symptoms), the extra rule files, the share links' base address and the
//! language. Texts over [`MAX_SAVED`] bytes are left out and marked, so the
//! page can say so after a reload. Storage may be missing or full: every
//! call degrades to "not saved" and the page says that too.

use crate::web::{storage_get, storage_remove, storage_set};
use roll_doctor_engine::{InputKind, Session};
use serde::{Deserialize, Serialize};

/// localStorage key of the saved inputs.
pub const INPUTS_KEY: &str = "roll-doctor.inputs";
/// Largest text kept in storage (bytes of UTF-8).
pub const MAX_SAVED: usize = 2_000_000;

/// One saved input.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedInput {
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub text: String,
    /// Size of a text that was too large to keep (it is not in `text`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omitted: Option<u64>,
    /// `(start_line, kind)` of segments whose kind the user chose.
    #[serde(default)]
    pub overrides: Vec<(u32, InputKind)>,
}

/// Everything saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    pub v: u32,
    #[serde(default)]
    pub inputs: Vec<SavedInput>,
    #[serde(default)]
    pub session: Session,
}

/// The saved state, if any can be read.
pub fn load() -> Option<Saved> {
    let raw = storage_get(INPUTS_KEY)?;
    let saved: Saved = serde_json::from_str(&raw).ok()?;
    (saved.v == 1).then_some(saved)
}

/// Saves; false when the browser refused (no storage, quota exceeded).
pub fn save(saved: &Saved) -> bool {
    match serde_json::to_string(saved) {
        Ok(json) => storage_set(INPUTS_KEY, &json),
        Err(_) => false,
    }
}

pub fn forget() {
    storage_remove(INPUTS_KEY);
}

/// The saved extra rule files, `(name, text)`.
pub fn load_rules() -> Vec<(String, String)> {
    storage_get(crate::state::RULES_KEY).and_then(|raw| serde_json::from_str(&raw).ok()).unwrap_or_default()
}

/// Saves the extra rule files (none: forgets them); false when refused.
pub fn save_rules(files: &[(String, String)]) -> bool {
    if files.is_empty() {
        storage_remove(crate::state::RULES_KEY);
        return true;
    }
    serde_json::to_string(files).map(|j| storage_set(crate::state::RULES_KEY, &j)).unwrap_or(false)
}
