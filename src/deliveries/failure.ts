// A failed delivery attempt, worded for the server owner: the message is what the Deliveries tab
// and the Test button show. `final`: retrying cannot help (a webhook that answered 410 Gone), so
// no retry is scheduled. Other failures are retried: the owner may fix the settings meanwhile.
export class DeliveryFailure extends Error {
  constructor(message: string, readonly detail: { httpStatus?: number; final?: boolean } = {}) {
    super(message)
  }
}

// Seconds for messages: "5 s", "1.5 s".
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`
