// Runs the delivery queue of an existing database until it is killed: the "process that dies in
// the middle of an attempt" of test/deliveries/retry.test.ts. Argument: the config as JSON.
import { parseConfig } from '../../src/config/load.ts'
import { memoryLogger } from '../../src/log.ts'
import { openStore } from '../../src/runtime.ts'
import { createSite, registerSiteWork } from '../../src/site.ts'

const { input, dir } = JSON.parse(process.argv[2])
const rt = createSite(await openStore(parseConfig(input, dir), { log: memoryLogger() }))
registerSiteWork(rt)
console.log('draining')
await rt.queue.drain()
