//! Grouping of bodies and rows into clusters: a union-find forest and a
//! counting sort into blocks, without allocation beyond reused buffers.

/// The root of `i` in the union-find forest `p` (paths compressed).
pub(crate) fn find(p: &mut [usize], i: usize) -> usize {
    let mut r = i;
    while p[r] != r {
        r = p[r];
    }
    let mut j = i;
    while p[j] != r {
        let nx = p[j];
        p[j] = r;
        j = nx;
    }
    r
}

/// Items grouped in one block (a counting sort): `group[i]` is item `i`'s
/// group (below `ng`) or `usize::MAX` (none). Afterwards the items of group
/// `g` are `members[starts[g]..starts[g + 1]]`, ascending. The buffers are
/// reused; nothing else is allocated.
pub(crate) fn bucket(group: &[usize], ng: usize, starts: &mut Vec<usize>, members: &mut Vec<usize>) {
    // counts at g + 2, so that after the prefix sums starts[g + 1] is where
    // group g begins, and after the filling where it ends
    starts.clear();
    starts.resize(ng + 2, 0);
    for &g in group.iter().filter(|&&g| g != usize::MAX) {
        starts[g + 2] += 1;
    }
    for g in 0..ng {
        starts[g + 2] += starts[g + 1];
    }
    members.clear();
    members.resize(starts[ng + 1], 0);
    for (i, &g) in group.iter().enumerate().filter(|(_, &g)| g != usize::MAX) {
        members[starts[g + 1]] = i;
        starts[g + 1] += 1;
    }
    starts.truncate(ng + 1);
}

#[cfg(test)]
mod tests {
    use super::bucket;

    /// Items land in their group's block in ascending order; an empty group
    /// has an empty block, items of no group appear nowhere; the buffers'
    /// old contents do not leak into the result.
    #[test]
    fn bucket_groups_items_in_order() {
        let none = usize::MAX;
        let group = [2, 0, none, 2, 0, 3, none, 2];
        let (mut starts, mut members) = (vec![7; 9], vec![5; 2]);
        bucket(&group, 4, &mut starts, &mut members);
        assert_eq!(starts, [0, 2, 2, 5, 6]);
        assert_eq!(members, [1, 4, 0, 3, 7, 5]);
        bucket(&[], 0, &mut starts, &mut members);
        assert_eq!((starts.as_slice(), members.as_slice()), (&[0usize][..], &[][..]));
    }
}
