//! Reading many small files at start-up, spread over the cores: at 10,000
//! sessions, opening and parsing their files is most of the time to the
//! first frame.

/// `read` applied to every item, on up to 8 threads (one below 64 items,
/// where threads cost more than they bring); results in input order. A
/// reader that panicked is a bug: its items are simply left out.
pub fn map<T: Sync, R: Send>(items: &[T], read: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if threads < 2 || items.len() < 64 {
        return items.iter().map(read).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let read = &read;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(read).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_is_read_once_in_order() {
        for n in [0, 1, 63, 64, 1000, 1001] {
            let items: Vec<usize> = (0..n).collect();
            let read = super::map(&items, |i| i * 2);
            assert_eq!(read, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        }
    }
}
