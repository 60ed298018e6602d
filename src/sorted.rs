//! Two lists sorted the same way, walked side by side: what one side of a comparison has and
//! the other not, without putting either in a set (a large repository's lists are millions
//! long).

use std::cmp::Ordering;

/// The items of two lists sorted by `key` (each key once per list), in order, each once with
/// whether each list has it (the base's item when both do).
pub fn side_by_side<'g, T: 'g, K: Ord + ?Sized + 'g>(
    base: impl IntoIterator<Item = &'g T>,
    head: impl IntoIterator<Item = &'g T>,
    key: impl Fn(&'g T) -> &'g K,
) -> impl Iterator<Item = (&'g T, bool, bool)> {
    let (mut b, mut h) = (base.into_iter().peekable(), head.into_iter().peekable());
    std::iter::from_fn(move || match (b.peek(), h.peek()) {
        (Some(&x), Some(&y)) => match key(x).cmp(key(y)) {
            Ordering::Less => b.next().map(|x| (x, true, false)),
            Ordering::Greater => h.next().map(|y| (y, false, true)),
            Ordering::Equal => {
                h.next();
                b.next().map(|x| (x, true, true))
            }
        },
        (Some(_), None) => b.next().map(|x| (x, true, false)),
        (None, _) => h.next().map(|y| (y, false, true)),
    })
}

#[cfg(test)]
mod tests {
    use super::side_by_side;

    #[test]
    fn each_item_comes_once_in_order_with_the_sides_that_have_it() {
        let base = [1, 3, 4, 6];
        let head = [2, 3, 6, 7];
        let walked: Vec<(i32, bool, bool)> = side_by_side(&base, &head, |x| x)
            .map(|(&x, b, h)| (x, b, h))
            .collect();
        assert_eq!(
            walked,
            [
                (1, true, false),
                (2, false, true),
                (3, true, true),
                (4, true, false),
                (6, true, true),
                (7, false, true)
            ]
        );
        assert_eq!(side_by_side(&[], &head, |x| x).count(), head.len());
        assert_eq!(side_by_side(&base, &[], |x| x).count(), base.len());
    }
}
