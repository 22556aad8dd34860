// A list that tests can await: `until(n)` resolves once the list holds n items.
export function arrivals<T>() {
  const items: T[] = []
  let waiters: (() => void)[] = []
  return {
    items,
    push(item: T) {
      items.push(item)
      const ready = waiters
      waiters = []
      for (const w of ready) w()
    },
    until(n: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => (items.length >= n ? resolve() : waiters.push(check))
        check()
      })
    },
  }
}
