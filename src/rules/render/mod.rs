//! GW5xx, render: findings about the configuration `gwctl render` would program. None is declared
//! yet.

family! {}
