export { default, formatCount, BadgeGroup } from './Badge';
export type { BadgeProps } from './Badge';
