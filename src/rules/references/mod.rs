//! GW2xx, references and route attachment, across all the inputs.

family! {
    gw201_parent_not_found => GW201,
    gw202_no_matching_listener => GW202,
    gw203_not_allowed_by_listeners => GW203,
    gw204_no_matching_listener_hostname => GW204,
    gw205_backend_not_found => GW205,
    gw206_service_port_not_found => GW206,
    gw207_invalid_backend_kind => GW207,
    gw208_ref_not_permitted => GW208,
    gw209_ref_target_not_found => GW209,
    gw210_ref_missing_key => GW210,
    gw211_extension_wrong_type => GW211,
    gw212_refs_not_checked => GW212,
    gw213_conflicting_route_rule => GW213,
    gw214_extension_refused_by_proxy => GW214,
    gw215_backend_ref_port_on_backend => GW215,
    gw216_certificate_not_pem => GW216,
    gw217_second_direct_response => GW217,
    gw218_listener_set_not_allowed => GW218,
}
