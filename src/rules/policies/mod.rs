//! GW3xx, policy attachment and merge (`decisions.md` section 5).

family! {
    gw301_policy_target_not_found => GW301,
    gw302_policy_section_not_found => GW302,
    gw303_policy_selector_selects_nothing => GW303,
    gw304_policy_attaches_to_nothing => GW304,
    gw305_policy_wrong_data_plane => GW305,
    gw306_data_plane_unknown => GW306,
    gw307_cloud_backend_on_ai_gateway => GW307,
    gw308_backend_config_conflict => GW308,
    gw309_policy_field_not_for_target => GW309,
    gw310_merge_decided_by_name => GW310,
    gw311_policy_overridden_everywhere => GW311,
    gw312_disable_cancels_nothing => GW312,
    gw313_pre_and_post_routing_overlap => GW313,
    gw314_tls_files_refused => GW314,
}
