//! What ROLL's config dataclasses accept (catalogue §2.3, ROLL
//! `roll/configs/*.py`). Only sections whose fields are known completely are
//! listed: an unknown key is reported only there, never on a guess.

// Which strategy names ROLL accepts is a rule's judgement: see
// rules/config/strategy-name-invalid.yaml.

/// Strategies whose `num_gpus_per_worker` ROLL keeps (others are forced to 1).
pub const MULTI_GPU_WORKER_STRATEGIES: &[&str] = &["hf_infer", "vllm", "sglang"];

/// Every field of `StrategyArguments`.
pub const STRATEGY_ARGS_KEYS: &[&str] = &["strategy_name", "strategy_config"];

/// Every field of `ModelArguments` (with its `LoraArguments` base).
pub const MODEL_ARGS_KEYS: &[&str] = &[
    "model_name_or_path",
    "adapter_name_or_path",
    "attn_implementation",
    "moe_aux_loss_coef",
    "disable_gradient_checkpointing",
    "gradient_checkpointing_use_reentrant",
    "device_map",
    "dtype",
    "model_type",
    "num_labels",
    "model_config_kwargs",
    "freeze_module_prefix",
    "ulysses_size",
    "vision_dp",
    "additional_target",
    "autocast_adapter_dtype",
];

/// `model_args` keys starting with these are LoRA fields (`lora_rank`, …).
pub const MODEL_ARGS_PREFIXES: &[&str] = &["lora_"];

/// Role-level keys that are known not to be `WorkerConfig` fields (the
/// docs' `strategy: megatron`). The role level as a whole is not checked:
/// pipelines add fields of their own.
pub const ROLE_KEYS_NOT_FIELDS: &[&str] = &["strategy"];

/// True when `key` is a field of `ModelArguments`.
pub fn is_model_arg(key: &str) -> bool {
    MODEL_ARGS_KEYS.contains(&key) || MODEL_ARGS_PREFIXES.iter().any(|p| key.starts_with(p))
}
