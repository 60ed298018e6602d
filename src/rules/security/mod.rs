//! GW4xx, security and practice (warnings); the checks are in `src/security/`.

family! {
    gw401_tls_verification_disabled => GW401,
    gw402_weak_password_hash => GW402,
    gw403_secret_in_configmap => GW403,
    gw404_cors_any_origin_with_credentials => GW404,
    gw405_extauth_fail_open => GW405,
    gw406_route_matches_every_host => GW406,
    gw407_jwt_any_audience => GW407,
    gw408_open_forward_proxy => GW408,
    gw409_https_without_tls => GW409,
}
