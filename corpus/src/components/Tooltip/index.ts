export { default } from './Tooltip';
export { computePosition } from './position';
export type { TooltipProps, TooltipTrigger } from './Tooltip';
export type { Placement } from './position';
