//! GW0xx, input: what gwctl reads (paths, bytes, YAML and JSON syntax, safety limits, kinds and
//! versions, its own config file and suppressions).

family! {
    gw001_unreadable_input => GW001,
    gw002_syntax_error => GW002,
    gw003_duplicate_key => GW003,
    gw004_not_an_object => GW004,
    gw005_input_limit => GW005,
    gw006_unknown_kind => GW006,
    gw007_unknown_version => GW007,
    gw008_not_checked => GW008,
    gw009_invalid_encoding => GW009,
    gw010_invalid_crd => GW010,
    gw011_unused_suppression => GW011,
    gw012_invalid_config => GW012,
    gw013_duplicate_object => GW013,
}
