package bench

// suite is every test, in the order they run and print.
var suite = []*Test{
	latencyGlobal, latencyTexture, latencyLocal, latencyConstant,
	bandwidthGlobal, textureThroughput, bandwidthLocal,
	ratesTest, chains, divergence, workgroupSize, icache,
	atomics, localOccupancy, registerOccupancy, hostCopy,
	commonStore, rowOrder, asyncCopy, fluid, tiling,
	apBandwidth, apFlops, clpeakTest,
}
