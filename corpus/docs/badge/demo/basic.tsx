import React from 'react';
import { Badge, Avatar } from 'my-design';

export default () => (
    <Badge count={5}>
        <Avatar>AB</Avatar>
    </Badge>
);
