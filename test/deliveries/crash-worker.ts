// Runs the delivery queue of an existing database until it is killed: the "process that dies in
// the middle of an attempt" of test/deliveries/retry.test.ts. Argument: the config as JSON.
import { parseConfig } from '../../src/config/load.ts'
import { registerSiteWork } from '../../src/runtime.ts'
import { memoryLogger } from '../../src/log.ts'
import { createRuntime } from '../../src/runtime.ts'

const { input, dir } = JSON.parse(process.argv[2])
const rt = createRuntime(parseConfig(input, dir), { log: memoryLogger() })
registerSiteWork(rt)
console.log('draining')
await rt.queue.drain()
