/**
 * Flow control: how a request's work is admitted, bounded in time and made to give way. Admission
 * lets a few requests work at once; the deadline answers 504 while nothing has committed; a request
 * waiting on something outside the process gives up its slot meanwhile. The store and the ports
 * declare where they commit and where they wait (`storeTraits`, `depsTraits` in core); nothing here
 * names a use case or a store method.
 */
export {
  type Admission,
  AdmissionRefusedError,
  type Aside,
  admission,
  admissionWaitMs,
  asideOf,
  type QueueLimits,
  waitAside,
} from "./admission.js";
export { answerRefused, markRefused } from "./refusal.js";
export {
  DeadlinePassedError,
  RequestDeadline,
  requestDeadline,
  requestTimedOut,
} from "./request-deadline.js";
export { DELIVERY_TRANSACTIONS } from "./store-binding.js";
