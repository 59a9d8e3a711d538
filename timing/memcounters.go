package timing

// memoryCounters adds the hierarchy's named counts to the kernel's
// counters and each core's (names and meanings in docs/counters.md).
func (e *Engine) memoryCounters(c map[string]float64, per []map[string]float64, cycles float64) {
	m := e.mem.Counters()
	for _, it := range m.Items(cycles) {
		c[it.Name] = it.Value
	}
	for core, pc := range per {
		for _, it := range m.CoreItems(core) {
			pc[it.Name] = it.Value
		}
	}
}
