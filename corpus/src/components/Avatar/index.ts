import Avatar from './Avatar';
import AvatarGroup from './AvatarGroup';

type AvatarComponent = typeof Avatar & { Group: typeof AvatarGroup };

const ExportedAvatar = Avatar as AvatarComponent;
ExportedAvatar.Group = AvatarGroup;

export default ExportedAvatar;
export { AvatarGroup };
export { pickColor } from './Avatar';
export type { AvatarProps, AvatarSize, AvatarColor } from './Avatar';
export type { AvatarGroupProps } from './AvatarGroup';
